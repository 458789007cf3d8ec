import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ambiguousAlternatives } from '../../src/kit/regex-ambiguity.js';
import { backtrackingRisk } from '../../src/kit/regex-backtracking.js';
import { parseRegex } from '../../src/kit/regex-parse.js';

// Alternatives of a repeated group that spell one text two ways, with the two alternatives the refusal names.
const AMBIGUOUS: [string, string, string][] = [
  ['^(a|b|ab)+$', 'a', 'ab'],
  ['^(ab|a|ba)+$', 'ab', 'a'],
  ['^(x|xy|yx|y)+$', 'x', 'xy'],
  ['^(\\r\\n|\\n|\\r)+$', '\\r\\n', '\\r'],
  ['^(?:ab|(?:a)(?:b))*$', 'ab', '(?:a)(?:b)'],
  ['^(a|bc|ab|c){2,}$', 'a', 'ab'],
  ['^(\\d|-|\\d-){1,40}$', '\\d', '\\d-'],
  ['^(?:[ab]|ba){3,}$', '[ab]', 'ba'],
  // Alternatives that hold alternatives: each way through one is a word of its own.
  ['^(a|b|a(?:b|c))+$', 'a', 'a(?:b|c)'],
  ['^(?:x(?:y|z)|xy|q)+$', 'x(?:y|z)', 'xy'],
  ['^(?:(?:a|b)(?:c|d)|ac|e)+$', '(?:a|b)(?:c|d)', 'ac'],
  ['^(?:0(?:1|2)|(?:0|3)1)+$', '0(?:1|2)', '(?:0|3)1'],
];
// Every text has one spelling (a prefix code, or one whose dangling suffixes lead nowhere), or the alternatives'
// lengths vary, which this rule does not read: none is refused by it.
const UNAMBIGUOUS = [
  '(ab|ac)+',
  '(foo|bar|baz)+',
  '(a|ab)+',
  '(a|ab|abc)+',
  '(\\r\\n|\\n)+',
  '^(?:\\\\.|[^"\\\\])*$',
  '^(?:[a-z0-9]|-)+$',
  '^(?:%[0-9a-f]{2}|[a-z])+$',
  '(ab|ba)+',
  '^(?:\\p{L}|\\p{L}\\p{M})+$',
  '^(?:a(?:b|c)|d)+$',
  '^(?:%(?:2[0-9a-f]|3[0-9a-f])|[a-z])+$',
  '^(?:x(?:a|ab)|y)+$',
];

describe('alternatives that spell one text two ways', () => {
  it.each(AMBIGUOUS)('%s is refused, naming %s and %s', (source, first, second) => {
    expect(backtrackingRisk(source)).toBe(
      `repeats a group whose alternatives ${JSON.stringify(first)} and ${JSON.stringify(second)} start two ways of spelling one same text with its alternatives, so n repetitions of it split 2^n ways: it can take exponential time on a value that almost matches`,
    );
  });

  it.each(UNAMBIGUOUS)('%s is not refused by this rule', (source) => {
    expect(ambiguousAlternatives(parseRegex(source))).toBeNull();
  });

  it('a witness longer than a short search reaches: 14 letters, two spellings both starting in one alternative', () => {
    const words = ['aaab', 'aab', 'abab', 'aba', 'bbaa', 'bbb'];
    expect(someTextSpeltTwice(words, 12)).toBe(false);
    expect(someTextSpeltTwice(words, 14)).toBe(true);
    expect(speltTwiceSomewhere(words)).toBe(true);
    expect(backtrackingRisk('^(aa(?:ab|b)|ab(?:ab|a)|bb(?:aa|b))+$')).toContain(
      'alternative "ab(?:ab|a)", taken two ways, starts two spellings of one same text',
    );
  });

  it('names one alternative once when its own ways through spell one text twice', () => {
    expect(backtrackingRisk('^(?:(?:a|ab)(?:c|bc))+$')).toBe(
      'repeats a group whose alternative "(?:a|ab)(?:c|bc)", taken two ways, starts two spellings of one same text, so n repetitions of it split 2^n ways: it can take exponential time on a value that almost matches',
    );
  });

  it('only under a group that may repeat more than once', () => {
    expect(ambiguousAlternatives(parseRegex('^(a|b|ab)$'))).toBeNull();
    expect(ambiguousAlternatives(parseRegex('^(a|b|ab)?$'))).toBeNull();
    expect(ambiguousAlternatives(parseRegex('^(?=(a|b|ab))x$'))).toBeNull();
    expect(ambiguousAlternatives(parseRegex('^x(?:y(a|b|ab){2})$'))).not.toBeNull();
  });

  it('agrees with counting the spellings when alternatives hold alternatives (each way through one a word)', () => {
    // An alternative is a word, or a word then one of two words: `a(?:b|ba)` spells `ab` and `aba`.
    const word = fc.string({ unit: fc.constantFrom('a', 'b'), minLength: 1, maxLength: 2 });
    const alternative = fc.oneof(
      word.map((only) => ({ source: only, words: [only] })),
      fc.tuple(word, word, word).map(([head, one, two]) => ({
        source: `${head}(?:${one}|${two})`,
        words: [head + one, head + two],
      })),
    );
    fc.assert(
      fc.property(fc.array(alternative, { minLength: 2, maxLength: 3 }), (alternatives) => {
        const found = ambiguousAlternatives(parseRegex(`(${alternatives.map((item) => item.source).join('|')})+`));
        const words = alternatives.flatMap((item) => item.words);
        // A witness may be longer than counting can reach (14 letters for aa(?:ab|b)|ab(?:ab|a)|bb(?:aa|b)): the
        // textbook test on plain words decides it, and counting confirms what it finds.
        expect(found !== null).toBe(speltTwiceSomewhere(words));
        if (someTextSpeltTwice(words, 10)) expect(found).not.toBeNull();
      }),
      { numRuns: 300 },
    );
  });

  it('agrees with counting the spellings of every text up to 12 letters, on random sets of short words', () => {
    // Words of one or two letters over {a, b}: a set is ambiguous exactly when some text has two spellings, and
    // for such small words a witness is short.
    const word = fc.string({ unit: fc.constantFrom('a', 'b'), minLength: 1, maxLength: 2 });
    fc.assert(
      fc.property(fc.uniqueArray(word, { minLength: 2, maxLength: 4 }), (words) => {
        const found = ambiguousAlternatives(parseRegex(`(${words.join('|')})+`)) !== null;
        expect(found).toBe(someTextSpeltTwice(words, 12));
      }),
      { numRuns: 300 },
    );
  });
});

// True when some text of at most `max` letters over {a, b} splits into the words in two or more ways.
function someTextSpeltTwice(words: readonly string[], max: number): boolean {
  for (let length = 1; length <= max; length++)
    for (let bits = 0; bits < 2 ** length; bits++) {
      let text = '';
      for (let at = 0; at < length; at++) text += (bits >> at) & 1 ? 'b' : 'a';
      const ways = new Array<number>(length + 1).fill(0);
      ways[0] = 1;
      for (let end = 1; end <= length; end++)
        for (const w of words)
          if (w.length <= end && text.slice(end - w.length, end) === w)
            ways[end] = (ways[end] ?? 0) + (ways[end - w.length] ?? 0);
      if ((ways[length] ?? 0) > 1) return true;
    }
  return false;
}

// Sardinas and Patterson's test on plain words: some text has two spellings when a word repeats, or when a dangling
// suffix (what one spelling has spelt past the other) is itself a word.
function speltTwiceSomewhere(words: readonly string[]): boolean {
  const known = new Set(words);
  if (known.size < words.length) return true;
  let dangling = new Set<string>();
  for (const a of words) for (const b of words) if (a !== b && b.startsWith(a)) dangling.add(b.slice(a.length));
  const seen = new Set<string>();
  while (dangling.size > 0) {
    const next = new Set<string>();
    for (const suffix of dangling) {
      if (known.has(suffix)) return true;
      if (seen.has(suffix)) continue;
      seen.add(suffix);
      for (const word of words) {
        if (word.startsWith(suffix)) next.add(word.slice(suffix.length));
        if (suffix.startsWith(word)) next.add(suffix.slice(word.length));
      }
    }
    dangling = next;
  }
  return false;
}
