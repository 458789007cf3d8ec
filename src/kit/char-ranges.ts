// Sets of characters as sorted, disjoint code-point ranges: what a regular expression's atom can match.

/** Characters as sorted, disjoint, inclusive code-point ranges. @internal */
export type CharRanges = readonly (readonly [number, number])[];

const MAX_CODE_POINT = 0x10ffff;

/** Every character. @internal */
export const ANY_CHAR: CharRanges = [[0, MAX_CODE_POINT]];
/** `\d`. @internal */
export const DIGIT: CharRanges = [[48, 57]];
/** `\w`. @internal */
export const WORD: CharRanges = [
  [48, 57],
  [65, 90],
  [95, 95],
  [97, 122],
];
/** `\s`: the white space and line terminators of ECMAScript. @internal */
export const SPACE: CharRanges = [
  [9, 13],
  [32, 32],
  [160, 160],
  [5760, 5760],
  [8192, 8202],
  [8232, 8233],
  [8239, 8239],
  [8287, 8287],
  [12288, 12288],
  [65279, 65279],
];

/** Sorts and merges ranges that overlap or touch. Pure. @internal */
export function mergeRanges(ranges: readonly (readonly [number, number])[]): CharRanges {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [low, high] of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && low <= last[1] + 1) last[1] = Math.max(last[1], high);
    else out.push([low, high]);
  }
  return out;
}

/** The characters outside `ranges` (sorted and disjoint). Pure. @internal */
export function complement(ranges: CharRanges): CharRanges {
  const out: [number, number][] = [];
  let next = 0;
  for (const [low, high] of ranges) {
    if (low > next) out.push([next, low - 1]);
    next = Math.max(next, high + 1);
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

/** True when no character is in both (each sorted and disjoint). Pure. @internal */
export function disjoint(a: CharRanges, b: CharRanges): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const [lowA, highA] = a[i] as readonly [number, number];
    const [lowB, highB] = b[j] as readonly [number, number];
    if (highA < lowB) i++;
    else if (highB < lowA) j++;
    else return false;
  }
  return true;
}
