// Which regular expressions can take exponential time on a backtracking engine, by their shape: a repetition of
// variable length nested in a repetition with nothing between them that the inner one cannot match (`(a+)+`,
// `(\w+\s?)*`, `(a{1,30}){1,30}`), two alternatives of a repeated group that can match a run of the same character
// (`(\w|\d)+`, `(a|aa)+`, regex-overlap.ts), alternatives that spell one text two ways (`(a|b|ab)+`,
// regex-ambiguity.ts), or three long repetitions in a row over one same character (`a*a*a*`,
// polynomial of a degree the pattern chooses, regex-adjacent.ts). The check reads the source (regex-parse.ts), never
// runs it.
import { type CharRanges, disjoint, mergeRanges } from './char-ranges.js';
import { pushAll } from './record.js';
import { adjacentRepetitions } from './regex-adjacent.js';
import { ambiguousAlternatives } from './regex-ambiguity.js';
import { overlappingAlternatives, repeats } from './regex-overlap.js';
import { parseRegex, type RegexItem } from './regex-parse.js';

// Every character an item can consume.
function charsOf(item: RegexItem): CharRanges {
  if (item.kind === 'assertion') return [];
  if (item.kind === 'atom') return item.chars;
  return mergeRanges(item.alternatives.flat().flatMap((inner) => charsOf(inner)));
}

// The characters of each repetition of variable length (`a+`, `a?`, `a{1,30}`) inside `alternatives`, at any depth:
// under a repeated group, any of them splits a run between passes in many ways, bounded or not (`(a{1,30}){1,30}`
// doubles its time with each `a`). A fixed count (`\d{2}`, `(ab){2}`) takes one length and splits nothing.
function innerRepetitions(alternatives: readonly (readonly RegexItem[])[]): CharRanges[] {
  const out: CharRanges[] = [];
  for (const item of alternatives.flat()) {
    if (item.max > item.min) out.push(charsOf(item));
    else if (item.kind === 'group') pushAll(out, innerRepetitions(item.alternatives));
  }
  return out;
}

// True when a repeated group's passes can split a value one way only: the group has one alternative, and it holds
// an atom that occurs at least once and is disjoint from all its inner repetitions (`(-[a-z]+)*`), or its items form
// a cycle of atoms that each occur at least once, each disjoint from the next and the last from the first
// (`(\s+\S+)*`, `(\w+\s+)*`): where one atom's run ends and the next one's begins is then forced.
function separated(alternatives: readonly (readonly RegexItem[])[], inner: readonly CharRanges[]): boolean {
  const [only, ...others] = alternatives;
  if (only === undefined || others.length > 0) return false;
  const disjointAtom = only.some(
    (item) => item.kind === 'atom' && item.min >= 1 && inner.every((chars) => disjoint(item.chars, chars)),
  );
  return disjointAtom || disjointCycle(only);
}

// True for two or more atoms, each occurring at least once, each disjoint from the next, the last from the first.
function disjointCycle(items: readonly RegexItem[]): boolean {
  if (items.length < 2) return false;
  return items.every((item, index) => {
    const next = items[(index + 1) % items.length] as RegexItem;
    return item.kind === 'atom' && item.min >= 1 && next.kind === 'atom' && disjoint(item.chars, next.chars);
  });
}

// True when some repeated group holds an unbounded repetition it does not separate.
function risky(alternatives: readonly (readonly RegexItem[])[]): boolean {
  for (const item of alternatives.flat()) {
    if (item.kind !== 'group') continue;
    if (repeats(item)) {
      const inner = innerRepetitions(item.alternatives);
      if (inner.length > 0 && !separated(item.alternatives, inner)) return true;
    }
    if (risky(item.alternatives)) return true;
  }
  return false;
}

/** Groups nested deeper than this are refused outright: the shape check walks them recursively. @internal */
export const MAX_GROUP_DEPTH = 256;

// How deep `source` nests its groups (escapes and classes skipped), in one pass.
function groupDepth(source: string): number {
  let depth = 0;
  let deepest = 0;
  let inClass = false;
  for (let index = 0; index < source.length; index++) {
    const char = source[index];
    if (char === '\\') index++;
    else if (inClass) inClass = char !== ']';
    else if (char === '[') inClass = true;
    else if (char === '(') deepest = Math.max(deepest, ++depth);
    else if (char === ')') depth = Math.max(0, depth - 1);
  }
  return deepest;
}

// An alternative's source, quoted, cut short when long.
function quoted(source: string, [start, end]: readonly [number, number]): string {
  const text = source.slice(start, end);
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

/**
 * Why `source` may take exponential (or high-degree polynomial) time on a
 * backtracking engine, or null: it nests groups more than
 * {@link MAX_GROUP_DEPTH} deep; it nests a repetition of variable length
 * inside a repeated group with nothing between the passes that the inner
 * repetition cannot match (`^(a+)+$`, `^(\w+\s?)*$`, `^(a{1,30}){1,30}$`);
 * two alternatives of a repeated group, bounded or not, can each match a
 * run of the same character (`^(\w|\d)+$`, `^(a|a?)+$`, `^(a|aa){2,60}$`);
 * the fixed-length alternatives of a repeated group spell one same text in
 * two ways (`^(a|b|ab)+$`, regex-ambiguity.ts);
 * or three repetitions in a row that may each take many characters can all
 * take a run of one same character (`^a*a*a*b$`, regex-adjacent.ts).
 * `^[a-z]+(-[a-z]+)*$`, `^(\d+\.)+\d+$`, `^(\d{2}){1,5}$`, `^(ab|ac)+$`
 * and `^\s*\w*$` are fine. Pure; the depth limit keeps its walks of the
 * groups short.
 *
 * @internal
 */
export function backtrackingRisk(source: string, flags?: string): string | null {
  if (groupDepth(source) > MAX_GROUP_DEPTH) return `nests groups more than ${MAX_GROUP_DEPTH} deep`;
  const top = parseRegex(source, flags);
  // Overlapping alternatives first: that refusal names the two alternatives (`(a|a?)+` also nests `a?`).
  const { overlap, runs } = overlappingAlternatives(top);
  if (overlap !== null)
    return `repeats a group whose alternatives ${quoted(source, overlap[0])} and ${quoted(source, overlap[1])} can both match runs of one same character, which split between them in exponentially many ways: it can take exponential time on a value that almost matches`;
  const ambiguity = ambiguousAlternatives(top);
  if (ambiguity !== null) {
    const [one, two] = ambiguity.map((span) => quoted(source, span));
    const which =
      one === two
        ? `alternative ${one}, taken two ways, starts two spellings of one same text`
        : `alternatives ${one} and ${two} start two ways of spelling one same text with its alternatives`;
    return `repeats a group whose ${which}, so n repetitions of it split 2^n ways: it can take exponential time on a value that almost matches`;
  }
  if (risky(top))
    return 'repeats a group that holds a repetition, with nothing in each pass that the inner repetition cannot match: it can take exponential time on a value that almost matches';
  const adjacent = adjacentRepetitions(top, runs);
  if (adjacent === null) return null;
  const [first, second, third] = adjacent.map((span) => quoted(source, span));
  return `has adjacent repetitions over the same characters (${first}, ${second} and ${third}, with nothing required between them that they cannot all match): each one more multiplies the time a value that almost matches takes by its length`;
}

/** True when {@link backtrackingRisk} finds a risk. Pure. @internal */
export function backtracksExponentially(source: string): boolean {
  return backtrackingRisk(source) !== null;
}
