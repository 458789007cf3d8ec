// Alternatives of one repeated group that spell one same text in two ways (`^(a|b|ab)+$`: `ab` is `ab`, or `a`
// then `b`). Each such text repeated n times parses 2^n ways, and a value that then fails makes a backtracking engine
// try them all. The overlap rule (regex-overlap.ts) sees runs of one character; this one sees chains of several.
//
// An alternative is read as a word of character classes when every item has a fixed length (`a`, `\d{3}`, `(?:ab)`);
// one that varies is left out, so the check shows only what it can: a word's classes are what its items surely match,
// and two classes at one position of the text share a character. The test is Sardinas and Patterson's for unique
// decodability, on classes instead of letters: two parses start with different words, one a prefix of the other, and
// the rest of the longer one (a dangling suffix) is followed until the two parses end together. Every position of the
// text is covered by one class of each parse, so two classes that intersect are all a witness needs.
import { type CharRanges, intersect } from './char-ranges.js';
import { pushAll } from './record.js';
import { repeats } from './regex-overlap.js';
import type { RegexItem } from './regex-parse.js';

/** Two alternatives of a repeated group, as source spans, that start two parses of one same text. @internal */
export type Ambiguity = readonly [readonly [number, number], readonly [number, number]];

// Words longer than this are not read (a fixed count such as `a{5000}`): the check stays small, and refuses less.
const MAX_WORD = 32;

// The classes an alternative surely matches, one per character, or null when its length varies or is too long.
function wordOf(items: readonly RegexItem[]): CharRanges[] | null {
  const word: CharRanges[] = [];
  for (const item of items) {
    if (item.min !== item.max || word.length + item.min > MAX_WORD) return null;
    if (item.kind === 'assertion') return null;
    if (item.kind === 'atom') for (let count = 0; count < item.min; count++) word.push(item.sure);
    else {
      const [only, ...others] = item.alternatives;
      const inner = only !== undefined && others.length === 0 && !item.lookaround ? wordOf(only) : null;
      if (inner === null || word.length + inner.length * item.min > MAX_WORD) return null;
      for (let count = 0; count < item.min; count++) pushAll(word, inner);
    }
  }
  return word;
}

// True when `short` can match the start of `long`: each of its classes meets the one facing it.
function fits(short: readonly CharRanges[], long: readonly CharRanges[]): boolean {
  for (let index = 0; index < short.length; index++)
    if (intersect(short[index] as CharRanges, long[index] as CharRanges).length === 0) return false;
  return true;
}

// A dangling suffix: the rest of word `owner` from `offset` on, which one parse has spelt and the other not yet;
// `origin` is the pair of words that started the two parses.
type Suffix = { readonly owner: number; readonly offset: number; readonly origin: readonly [number, number] };

// The two words that start two spellings of one text, or null: the dangling suffixes of every pair of distinct
// words (the shorter fitting the start of the longer) are followed, each (word, offset) once, until a word ends
// exactly where one does (equal words end at once).
function twoSpellings(words: readonly (readonly CharRanges[])[]): readonly [number, number] | null {
  const pending: Suffix[] = [];
  for (const [a, shorter] of words.entries())
    for (const [b, longer] of words.entries()) {
      if (a === b || shorter.length === 0 || shorter.length > longer.length || !fits(shorter, longer)) continue;
      if (shorter.length === longer.length) return [a, b];
      pending.push({ owner: b, offset: shorter.length, origin: [a, b] });
    }
  const seen = new Set<string>();
  // Breadth first: the pair named starts the double spelling found in the fewest steps.
  for (let at = 0; at < pending.length; at++) {
    const next = pending[at] as Suffix;
    const { owner, offset, origin } = next;
    const key = `${owner}:${offset}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const suffix = (words[owner] as readonly CharRanges[]).slice(offset);
    for (const [index, word] of words.entries()) {
      if (word.length === 0) continue;
      if (word.length <= suffix.length && fits(word, suffix)) {
        if (word.length === suffix.length) return origin;
        pending.push({ owner, offset: offset + word.length, origin });
      } else if (word.length > suffix.length && fits(suffix, word))
        pending.push({ owner: index, offset: suffix.length, origin });
    }
  }
  return null;
}

// Groups of more alternatives than this are not read (the check is quadratic in them, and a wide alternation of
// distinct words is left to the overlap rule).
const MAX_ALTERNATIVES = 64;

// The two alternatives of `group` that start two spellings of one text, as source spans in source order, or null.
function ambiguityOf(group: Extract<RegexItem, { kind: 'group' }>): Ambiguity | null {
  if (group.alternatives.length > MAX_ALTERNATIVES) return null;
  const known = group.alternatives.flatMap((items, index) => {
    const word = wordOf(items);
    return word === null ? [] : [{ word, index }];
  });
  const pair = twoSpellings(known.map((entry) => entry.word));
  if (pair === null) return null;
  const [one, two] = pair.map((at) => group.spans[known[at]?.index ?? 0] ?? ([0, 0] as const)) as [
    readonly [number, number],
    readonly [number, number],
  ];
  return one[0] <= two[0] ? [one, two] : [two, one];
}

/**
 * The first repeated group ({@link repeats}) whose alternatives spell one same text in two ways (`^(a|b|ab)+$`,
 * `^(ab|a|ba)+$`, `^(aa|aaa)+$`), as the spans of the two alternatives that start the two parses, or null. Only
 * alternatives of fixed length are read. Pure; recursive over the groups (their depth is bounded by the caller).
 * @internal
 */
export function ambiguousAlternatives(alternatives: readonly (readonly RegexItem[])[]): Ambiguity | null {
  for (const item of alternatives.flat()) {
    if (item.kind !== 'group') continue;
    if (repeats(item) && !item.lookaround) {
      const found = ambiguityOf(item);
      if (found !== null) return found;
    }
    const inner = ambiguousAlternatives(item.alternatives);
    if (inner !== null) return inner;
  }
  return null;
}
