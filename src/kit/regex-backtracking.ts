// Which regular expressions can take exponential time on a backtracking engine, by their shape: a repetition nested
// in a repetition with nothing between them that the inner one cannot match (`(a+)+`, `(\w+\s?)*`). The check
// reads the source (regex-parse.ts), never runs it; it does not look for other slow shapes, such as overlapping
// alternatives under one repetition (`(a|aa)+`).
import { type CharRanges, disjoint, mergeRanges } from './char-ranges.js';
import { parseRegex, type RegexItem } from './regex-parse.js';

// Every character an item can consume.
function charsOf(item: RegexItem): CharRanges {
  if (item.kind === 'atom') return item.chars;
  return mergeRanges(item.alternatives.flat().flatMap((inner) => charsOf(inner)));
}

// The characters of each unbounded repetition inside `alternatives`, at any depth.
function innerRepetitions(alternatives: readonly (readonly RegexItem[])[]): CharRanges[] {
  const out: CharRanges[] = [];
  for (const item of alternatives.flat()) {
    if (item.max === Number.POSITIVE_INFINITY) out.push(charsOf(item));
    else if (item.kind === 'group') out.push(...innerRepetitions(item.alternatives));
  }
  return out;
}

// True when each pass through a repeated group must consume a character none of its inner repetitions can: the
// group has one alternative, and it holds an atom that occurs at least once and is disjoint from all of them.
function separated(alternatives: readonly (readonly RegexItem[])[], inner: readonly CharRanges[]): boolean {
  const [only, ...others] = alternatives;
  if (only === undefined || others.length > 0) return false;
  return only.some(
    (item) => item.kind === 'atom' && item.min >= 1 && inner.every((chars) => disjoint(item.chars, chars)),
  );
}

// True when some group that repeats (more than once) holds an unbounded repetition it does not separate.
function risky(alternatives: readonly (readonly RegexItem[])[]): boolean {
  for (const item of alternatives.flat()) {
    if (item.kind !== 'group') continue;
    if (item.max > 1) {
      const inner = innerRepetitions(item.alternatives);
      if (inner.length > 0 && !separated(item.alternatives, inner)) return true;
    }
    if (risky(item.alternatives)) return true;
  }
  return false;
}

/**
 * True when `source` nests an unbounded repetition inside a repeated group
 * with nothing between the passes that the inner repetition cannot match:
 * such a pattern can take exponential time on a string that almost matches.
 * `^(a+)+$` and `^(\w+\s?)*$` are; `^[a-z]+(-[a-z]+)*$` and `^(\d+\.)+\d+$`
 * are not. Pure.
 *
 * @internal
 */
export function backtracksExponentially(source: string): boolean {
  return risky(parseRegex(source));
}
