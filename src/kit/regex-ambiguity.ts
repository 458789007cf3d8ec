// Alternatives of one repeated group that spell one same text in two ways (`^(a|b|ab)+$`: `ab` is `ab`, or `a`
// then `b`). Each such text repeated n times parses 2^n ways, and a value that then fails makes a backtracking engine
// try them all. The overlap rule (regex-overlap.ts) sees runs of one character; this one sees chains of several.
//
// An alternative is read as words of character classes when every item has a fixed length (`a`, `\d{3}`, `(?:ab)`;
// a group of alternatives, `a(?:b|c)`, gives one word per way through it); one that varies is left out, so the check shows only what it can: a word's classes are what its items surely match,
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

// Words an alternative may spell (`a(?:b|c)` spells `ab` and `ac`) past this many are not read.
const MAX_WORDS = 64;

// The words an alternative surely spells, as classes, one per character: several when it holds a group of
// alternatives; null when its length varies, a word is too long or there are too many.
function wordsOf(items: readonly RegexItem[]): CharRanges[][] | null {
  let words: CharRanges[][] | null = [[]];
  for (const item of items) {
    if (item.min !== item.max || item.kind === 'assertion') return null;
    const pass = item.kind === 'atom' ? [[item.sure]] : item.lookaround ? null : passesOf(item.alternatives);
    for (let count = 0; count < item.min && words !== null; count++) words = pass === null ? null : then(words, pass);
    if (words === null) return null;
  }
  return words;
}

// The words one pass through a group's alternatives spells, or null.
function passesOf(alternatives: readonly (readonly RegexItem[])[]): CharRanges[][] | null {
  const words: CharRanges[][] = [];
  for (const alternative of alternatives) {
    const inner = wordsOf(alternative);
    if (inner === null || words.length + inner.length > MAX_WORDS) return null;
    pushAll(words, inner);
  }
  return words;
}

// Every word of `heads` followed by every word of `tails`, or null past MAX_WORDS words or MAX_WORD classes.
function then(heads: readonly CharRanges[][], tails: readonly CharRanges[][]): CharRanges[][] | null {
  if (heads.length * tails.length > MAX_WORDS) return null;
  const words: CharRanges[][] = [];
  for (const head of heads)
    for (const tail of tails) {
      if (head.length + tail.length > MAX_WORD) return null;
      words.push([...head, ...tail]);
    }
  return words;
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

// Groups of more alternatives, or spelling more words, than this are not read (the check is quadratic in the words,
// and a wide alternation of distinct words is left to the overlap rule).
const MAX_ALTERNATIVES = 64;

// The two alternatives of `group` that start two spellings of one text, as source spans in source order, or null
// (two words of one alternative, `a(?:b|b)`, name it twice).
function ambiguityOf(group: Extract<RegexItem, { kind: 'group' }>): Ambiguity | null {
  if (group.alternatives.length > MAX_ALTERNATIVES) return null;
  const known = group.alternatives.flatMap((items, index) => (wordsOf(items) ?? []).map((word) => ({ word, index })));
  if (known.length > MAX_ALTERNATIVES) return null;
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
 * `^(ab|a|ba)+$`, `^(aa|aaa)+$`, `^(a|b|a(?:b|c))+$`), as the spans of the two alternatives that start the two
 * parses, or null. Only alternatives whose every item has a fixed length are read. Pure; recursive over the groups
 * (their depth is bounded by the caller).
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
