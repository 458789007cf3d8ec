// Sets of characters as sorted, disjoint code-point ranges: what a regular expression's atom can match.

/** Characters as sorted, disjoint, inclusive code-point ranges. @internal */
export type CharRanges = readonly (readonly [number, number])[];

const MAX_CODE_POINT = 0x10ffff;

/** Every character. @internal */
export const ANY_CHAR: CharRanges = [[0, MAX_CODE_POINT]];
// What `.` never matches without the `s` flag, and UTF-16 surrogates, which a `u` pattern reads in pairs.
const LINE_TERMINATORS: CharRanges = [
  [10, 10],
  [13, 13],
  [8232, 8233],
];
const SURROGATES: CharRanges = [[0xd800, 0xdfff]];
const NOT_SURROGATES: CharRanges = [
  [0, 0xd7ff],
  [0xe000, MAX_CODE_POINT],
];
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

/** The characters in both (each sorted and disjoint). Pure. @internal */
export function intersect(a: CharRanges, b: CharRanges): CharRanges {
  const out: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const [lowA, highA] = a[i] as readonly [number, number];
    const [lowB, highB] = b[j] as readonly [number, number];
    if (Math.max(lowA, lowB) <= Math.min(highA, highB)) out.push([Math.max(lowA, lowB), Math.min(highA, highB)]);
    if (highA < highB) i++;
    else j++;
  }
  return out;
}

/**
 * What an atom matches, bounded from both sides: every character it may match (`chars`) and the characters it
 * surely matches (`sure`, within `chars`). They differ where the reader does not model the syntax (`\p{L}`, a
 * backreference) or a flag decides (`.` and the `s` flag). A check that would refuse too much on a character the
 * atom might not match reads `sure`; one that would allow too much on a character it might match reads `chars`.
 * @internal
 */
export type CharBounds = { readonly chars: CharRanges; readonly sure: CharRanges };

/** The bounds of a set known exactly; a surrogate is never sure: a `u` pattern reads it as half of a pair. @internal */
export function exactly(chars: CharRanges): CharBounds {
  return { chars, sure: disjoint(chars, SURROGATES) ? chars : intersect(chars, NOT_SURROGATES) };
}

/** What an unmodelled escape matches: maybe anything, surely nothing. @internal */
export const UNKNOWN: CharBounds = { chars: ANY_CHAR, sure: [] };

/** `.` when the flags are not known: everything but line terminators, and those too under the `s` flag. @internal */
export const DOT: CharBounds = {
  chars: ANY_CHAR,
  sure: intersect(complement(LINE_TERMINATORS), NOT_SURROGATES),
};

/** `.` without the `s` flag (as ajv compiles a JSON Schema `pattern`): never a line terminator. @internal */
export const DOT_WITHOUT_S: CharBounds = { chars: complement(LINE_TERMINATORS), sure: DOT.sure };

/** A negated class `[^...]` of a class with these bounds. Pure. @internal */
export function negated(bounds: CharBounds): CharBounds {
  return { chars: complement(bounds.sure), sure: intersect(complement(bounds.chars), NOT_SURROGATES) };
}

// The other case of each ASCII letter in `ranges`.
function asciiOtherCase(ranges: CharRanges): (readonly [number, number])[] {
  const upper = intersect(ranges, [[65, 90]]).map(([low, high]) => [low + 32, high + 32] as const);
  const lower = intersect(ranges, [[97, 122]]).map(([low, high]) => [low - 32, high - 32] as const);
  return [...upper, ...lower];
}

// Characters whose case folding can reach beyond ASCII letters (`s` and `ſ`, `k` and the Kelvin sign).
const FOLDS_FAR: CharRanges = mergeRanges([
  [75, 75],
  [83, 83],
  [107, 107],
  [115, 115],
  [128, MAX_CODE_POINT],
]);

/**
 * The bounds of a set under the `i` flag: a character surely matches itself and its other ASCII case; beyond
 * ASCII letters the folding is not modelled, so a set that reaches there may match anything. Pure. @internal
 */
export function ignoringCase(bounds: CharBounds): CharBounds {
  const chars = disjoint(bounds.chars, FOLDS_FAR)
    ? mergeRanges([...bounds.chars, ...asciiOtherCase(bounds.chars)])
    : ANY_CHAR;
  return { chars, sure: mergeRanges([...bounds.sure, ...asciiOtherCase(bounds.sure)]) };
}
