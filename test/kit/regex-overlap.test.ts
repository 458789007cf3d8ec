import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backtrackingRisk, backtracksExponentially } from '../../src/kit/regex-backtracking.js';
import { overlappingAlternatives } from '../../src/kit/regex-overlap.js';
import { parseRegex } from '../../src/kit/regex-parse.js';

// Overlapping alternatives under an unbounded repetition, each with the two alternatives the refusal names.
const OVERLAPPING: [string, string, string][] = [
  ['^(\\w|\\d)+$', '\\w', '\\d'],
  ['^(?:[a-z]|[a-z0-9])+$', '[a-z]', '[a-z0-9]'],
  ['^(a|a?)+$', 'a', 'a?'],
  ['^(a|aa)+$', 'a', 'aa'],
  // What may match nothing does not separate a run: `a?b` and `(?:a|)b` match `b` alone.
  ['^(b|a?b)+$', 'b', 'a?b'],
  ['^(b|(?:a|)b)+$', 'b', '(?:a|)b'],
  ['(aa|aaa)*', 'aa', 'aaa'],
  ['^(x|y|[^,])+$', 'x', '[^,]'],
  ['^(.|a){3,}$', '.', 'a'],
  ['^(?<c>\\s|\\x20)+$', '\\s', '\\x20'],
  ['(?:x|(?:y|x))*', 'x', 'x'],
  ['^(?i:a|A)+$', 'a', 'A'],
  ['^(\\d|[^a-z])+$', '\\d', '[^a-z]'],
  // A bound does not help: `(a|a){1,22}` already doubles its time with each `a` of a value that then fails.
  ['^(a|a){1,40}$', 'a', 'a'],
  ['^(a|aa){2,60}$', 'a', 'aa'],
  ['^(\\w|\\d){1,64}$', '\\w', '\\d'],
  ['^(?:[a-z]|[a-z0-9]){1,63}$', '[a-z]', '[a-z0-9]'],
  ['(a|aa){2}', 'a', 'aa'],
  // Harmless alone (at most four ways per start), refused as `(a+){0,2}` is: one threshold for both rules.
  ['(a|a){0,2}', 'a', 'a'],
];
// No two alternatives of one unbounded repetition match a run of the same character, or the reader cannot
// tell that they do (a Unicode property, a backreference, a lookaround, an anchor): none is refused.
const DISJOINT = [
  '(ab|ac)+',
  '(a|b)+',
  '([a-z]|-)+',
  '^[a-z]+(-[a-z]+)*$',
  '^(\\d+\\.)+\\d+$',
  '(foo|bar)*',
  '(\\r\\n|\\n)+',
  '(.|\\n)+',
  '(a|ab)+',
  '(a|a)?',
  '(a|a){0,1}',
  '(a|aa){1}',
  '^[a-z]{1,64}$',
  '^(\\d{1,3}\\.){3}\\d{1,3}$',
  '^([a-z]|-){1,64}$',
  '(ab|ac){1,10}',
  '^([a-z0-9]|-){1,63}(\\.([a-z0-9]|-){1,63})*$',
  '^([01]?\\d|2[0-3]):[0-5]\\d$',
  '(?i:[^a]|A)+',
  '(\\p{L}|\\d)+',
  '([^\\p{L}]|\\d)+',
  '((?=a)|a)+',
  '((a)|\\1)+',
  '(^a|a)+',
  '(\\ba|a)+',
  '([😀]|\\ud83d)+',
];

describe('overlapping alternatives under a repetition', () => {
  it.each(OVERLAPPING)('refuses %s, naming %s and %s', (pattern, first, second) => {
    expect(backtrackingRisk(pattern)).toContain(`alternatives ${JSON.stringify(first)} and ${JSON.stringify(second)}`);
  });

  it.each(DISJOINT)('accepts %s', (pattern) => {
    expect(backtrackingRisk(pattern)).toBeNull();
  });

  it('counts a group as repeated exactly when the nested-repetition rule does, whatever its bound', () => {
    const bound = fc.oneof(
      fc.constantFrom('?', '*', '+', ''),
      fc.nat(70).map((n) => `{${n}}`),
      fc.nat(70).map((n) => `{${n},}`),
      fc.tuple(fc.nat(70), fc.nat(70)).map(([a, b]) => `{${Math.min(a, b)},${Math.max(a, b)}}`),
    );
    fc.assert(
      fc.property(bound, (quantifier) => {
        const overlap = backtrackingRisk(`^(a|a)${quantifier}$`);
        const nested = backtrackingRisk(`^(a+)${quantifier}$`);
        expect(overlap === null ? null : 'refused').toBe(nested === null ? null : 'refused');
        expect(overlap ?? '').not.toContain('holds a repetition');
        expect(nested ?? '').not.toContain('alternatives');
      }),
    );
    expect(backtracksExponentially('^(a|a){0,1}$')).toBe(false);
    expect(backtracksExponentially('^(a|a){0,2}$')).toBe(true);
  });

  it('leaves ambiguity that only alternatives in sequence show to the ambiguity rule', () => {
    // `ab` is `a` then `b`: no two alternatives share a run of one character, yet `abab…` splits many ways.
    for (const source of ['^(a|b|ab)+$', '^(a|ab|b)+$']) {
      expect(overlappingAlternatives(parseRegex(source)).overlap).toBeNull();
      expect(backtrackingRisk(source)).toContain('start two ways of spelling one same text');
    }
  });

  it('refuses two single-character classes under + exactly when some character matches both', () => {
    const alphabet = [...'abcxyz09-_ \n!é'];
    const classes = fc.constantFrom(
      ...['a', 'b', '0', '-', '\\n', '\\d', '\\w', '\\W', '\\s', '\\S', '.', '[a-c]', '[^a]', '[^\\w-]', '[x-z0]'],
      ...['[ab_]', '\\x61', '[^]', '[]', '[\\d\\s]', '\\u00e9', '[^\\s\\d]', 'é'],
    );
    fc.assert(
      fc.property(fc.array(classes, { minLength: 2, maxLength: 4 }), (alternatives) => {
        const sets = alternatives.map((source) => {
          const regex = new RegExp(`^(?:${source})$`, 'u');
          return new Set(alphabet.filter((char) => regex.test(char)));
        });
        const shared = sets.some((set, i) => sets.some((other, j) => j > i && [...set].some((c) => other.has(c))));
        expect(backtracksExponentially(`^(${alternatives.join('|')})+$`)).toBe(shared);
      }),
    );
  });

  it('refuses words only when some value splits two ways between the alternatives (brute force)', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b'), minLength: 1, maxLength: 3 });
    // How many ways `value` splits into a sequence of `words`.
    const splits = (value: string, words: readonly string[]): number => {
      const ways = [1, ...Array.from(value, () => 0)];
      for (let end = 1; end <= value.length; end++)
        for (const [index, candidate] of words.entries())
          if (words.indexOf(candidate) === index && value.slice(0, end).endsWith(candidate))
            ways[end] = (ways[end] as number) + (ways[end - candidate.length] as number);
      return ways[value.length] as number;
    };
    fc.assert(
      fc.property(fc.array(word, { minLength: 2, maxLength: 4 }), (words) => {
        if (!backtracksExponentially(`^(${words.join('|')})+$`)) return;
        const ambiguous =
          new Set(words).size < words.length ||
          Array.from({ length: 2 ** 10 }, (_, bits) => bits)
            .flatMap((bits) =>
              Array.from({ length: 10 }, (_, n) => (bits % 2 ** (n + 1)).toString(2).padStart(n + 1, '0')),
            )
            .some((v) => splits(v.replaceAll('0', 'a').replaceAll('1', 'b'), words) > 1);
        expect(ambiguous).toBe(true);
      }),
    );
  });

  it('never throws on arbitrary sources with modifiers, lookarounds and classes', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'()[]{}|*+?\\^$.-:=!<>aAiswdpP{}01') }), (source) => {
        expect(typeof backtracksExponentially(source)).toBe('boolean');
      }),
    );
  });

  it('reads a wide alternation in one sweep and finds the one pair that overlaps', () => {
    const distinct = Array.from({ length: 40_000 }, (_, index) => String.fromCodePoint(0x4e00 + index));
    expect(backtrackingRisk(`^(${distinct.join('|')})+$`)).toBeNull();
    expect(backtrackingRisk(`^(${distinct.join('|')}|\\u4e01)+$`)).toContain('"丁" and "\\\\u4e01"');
  });
});

describe('parseRegex character bounds', () => {
  const atom = (source: string) => {
    const item = parseRegex(source)[0]?.[0];
    if (item?.kind !== 'atom') throw new Error(`${source} is not one atom`);
    return item;
  };

  it('. may match anything and surely matches all but line terminators', () => {
    expect(atom('.').chars).toEqual([[0, 0x10ffff]]);
    expect(atom('.').sure.some(([low, high]) => low <= 10 && 10 <= high)).toBe(false);
    expect(atom('.').sure.some(([low, high]) => low <= 97 && 97 <= high)).toBe(true);
  });

  it('a negated class around an unmodelled escape may match anything and surely matches nothing', () => {
    expect(atom('[^\\p{L}]')).toMatchObject({ chars: [[0, 0x10ffff]], sure: [] });
    expect(atom('\\1')).toMatchObject({ chars: [[0, 0x10ffff]], sure: [] });
    // So it separates no pass of a repetition that holds digits.
    expect(backtrackingRisk('^(\\d+[^\\p{L}])+$')).toContain('repeats a group that holds a repetition');
  });

  it('under (?i:) a letter surely matches both cases; beyond ASCII folding it may match anything', () => {
    const folded = parseRegex('(?i:a)')[0]?.[0];
    expect(folded?.kind === 'group' && folded.alternatives[0]?.[0]).toMatchObject({
      sure: [
        [65, 65],
        [97, 97],
      ],
    });
    const far = parseRegex('(?i:k)')[0]?.[0];
    expect(far?.kind === 'group' && far.alternatives[0]?.[0]).toMatchObject({ chars: [[0, 0x10ffff]] });
    expect(backtrackingRisk('^(?i:(a+A)+)$')).toContain('repeats a group that holds a repetition');
    expect(backtrackingRisk('^(?i:(?-i:(a+A)+))$')).toBeNull();
  });
});
