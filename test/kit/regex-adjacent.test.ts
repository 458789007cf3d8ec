import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MANY_PASSES, MAX_SHORT_WAYS } from '../../src/kit/regex-adjacent.js';
import { backtrackingRisk, backtracksExponentially } from '../../src/kit/regex-backtracking.js';

// Three or more repetitions in a row that can each take any share of a run of one character, with nothing
// required between them that the run cannot pass, each with the three the refusal names.
const ADJACENT: [string, string, string, string][] = [
  ['^a*a*a*a*a*a*a*a*a*a*b$', 'a*', 'a*', 'a*'],
  ['^\\d*\\d*\\d*\\d*\\d*\\d*\\d*\\d*x$', '\\d*', '\\d*', '\\d*'],
  ['^a*a*a*b$', 'a*', 'a*', 'a*'],
  ['^[a-z]*[a-z0-9]*[a-z]*$', '[a-z]*', '[a-z0-9]*', '[a-z]*'],
  ['^.*.*.*$', '.*', '.*', '.*'],
  ['^\\w+\\d{0,40}[0-9]{1,}!$', '\\w+', '\\d{0,40}', '[0-9]{1,}'],
  // What may match nothing (`b?`) or must match the run's character (`a`) does not end the run.
  ['^x+a*b?a{0,40}a(?:a)+$', 'a*', 'a{0,40}', '(?:a)+'],
  // A plain group's items run in a row with their neighbours; a repeated group of one character is a repetition.
  ['^(a*)a*(?:[ab]*c?)$', 'a*', 'a*', '[ab]*'],
  ['^(?:a|b)*[ab]+(?:b){17,}$', '(?:a|b)*', '[ab]+', '(?:b){17,}'],
  ['^(?:x|y(a*a+a*))$', 'a*', 'a+', 'a*'],
  ['^\\s*\\s*\\s*$', '\\s*', '\\s*', '\\s*'],
  // A long repetition over other characters that may take nothing does not end the run either (6.4 s at 3,000
  // characters for the first; 45 s at 600 for the second).
  ['^\\w+\\s*\\w*\\s*\\w*$', '\\w+', '\\w*', '\\w*'],
  ['^\\d*\\s*\\d*\\s*\\d*\\s*\\d*x$', '\\d*', '\\d*', '\\d*'],
  ['^a*b*a*b*a*c$', 'a*', 'a*', 'a*'],
];
// Two in a row (quadratic at most), three with no character common to all, a required character between them
// that the others cannot match, short repetitions, or what the reader does not model: accepted.
const ACCEPTED = [
  '^\\s*\\w*$',
  '^[a-z]*[a-z0-9]*$',
  '^\\s*\\w+\\s*$',
  '^[a-z]*[0-9]*[a-z]*$',
  '^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}$',
  '^\\d{4}-\\d{2}-\\d{2}$',
  '^.*$',
  '^[a-z]+(-[a-z]+)*$',
  '^a*-a*-a*$',
  '^.*foo.*bar.*$',
  '^a*\\ba*a*$',
  '^a?a?a?a?$',
  '^a{0,16}a{0,16}a{0,16}$',
  '^a{20}a{20}a{20}$',
  '^\\p{L}*\\p{L}*\\p{L}*$',
  '^a*(?:a*|b)a*$',
  '^a*(?=a)a*a*$',
  '^(?:a*)?a*a*$',
];

describe('adjacent repetitions over the same characters', () => {
  it.each(ADJACENT)('refuses %s, naming %s, %s and %s', (pattern, first, second, third) => {
    const risk = backtrackingRisk(pattern);
    expect(risk).toContain('adjacent repetitions over the same characters');
    expect(risk).toContain(`(${[first, second].map((s) => JSON.stringify(s)).join(', ')} and ${JSON.stringify(third)}`);
  });

  it.each(ACCEPTED)('accepts %s', (pattern) => {
    expect(backtrackingRisk(pattern)).toBeNull();
  });

  it('counts a repetition as long past MANY_PASSES passes of varying number', () => {
    expect(backtracksExponentially(`^a{0,${MANY_PASSES}}a*a*$`)).toBe(false);
    expect(backtracksExponentially(`^a{0,${MANY_PASSES + 1}}a*a*$`)).toBe(true);
    expect(backtracksExponentially(`^a{${MANY_PASSES + 1}}a*a*$`)).toBe(false);
  });

  it('refuses a sequence exactly when three long repetitions in a row share a character that every required item between them matches', () => {
    const alphabet = [...'ab0z- !'];
    const classes = ['a', 'b', '0', '-', '[ab]', '[a0]', '\\d', '\\w', '[^a]', '.', '\\s', '[^\\w]'];
    const setOf = (source: string): Set<string> => {
      const regex = new RegExp(`^(?:${source})$`, 'u');
      return new Set(alphabet.filter((char) => regex.test(char)));
    };
    type Item = { source: string; role: 'long' | 'required' | 'optional'; set: Set<string>; empty?: boolean };
    const long = fc
      .tuple(fc.constantFrom(...classes), fc.constantFrom('*', '+', '{0,17}', '{2,}'), fc.boolean())
      .map(([cls, quantifier, grouped]): Item => {
        const source = `${grouped ? `(?:${cls})` : cls}${quantifier}`;
        return { source, role: 'long', set: setOf(cls), empty: quantifier === '*' || quantifier === '{0,17}' };
      });
    const between = fc.oneof(
      fc.constantFrom(...classes).map((cls): Item => ({ source: cls, role: 'required', set: setOf(cls) })),
      fc.constantFrom(...classes).map((cls): Item => ({ source: `${cls}{1,16}`, role: 'required', set: setOf(cls) })),
      fc.constantFrom(...classes).map((cls): Item => ({ source: `${cls}?`, role: 'optional', set: new Set() })),
      fc.constant<Item>({ source: '\\b', role: 'required', set: new Set() }),
    );
    const sequence = fc.array(fc.oneof(long, long, between), { maxLength: 8 });
    fc.assert(
      fc.property(sequence, (items) => {
        // Brute force over every three long repetitions i < j < k: a character all three take a run of, with every
        // item between them either able to take nothing (an optional item, a long one with no minimum) or able to
        // take a run of that character too.
        const longs = items.flatMap((item, index) => (item.role === 'long' ? [index] : []));
        const expected = longs.some((i, a) =>
          longs.slice(a + 1).some((j, b) =>
            longs.slice(a + b + 2).some((k) =>
              alphabet.some((char) =>
                items.slice(i, k + 1).every((item, offset) => {
                  const at = i + offset;
                  if (at === i || at === j || at === k) return item.set.has(char);
                  return item.role === 'optional' || item.empty === true || item.set.has(char);
                }),
              ),
            ),
          ),
        );
        const pattern = `^${items.map((item) => item.source).join('')}$`;
        const risk = backtrackingRisk(pattern);
        expect(risk?.includes('adjacent repetitions') ?? false, pattern).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('reads a long sequence and deep plain groups, each item once', () => {
    expect(backtrackingRisk(`^${'[a-z]*-'.repeat(50_000)}$`)).toBeNull();
    expect(backtrackingRisk(`^${'(?:'.repeat(200)}a*${')'.repeat(200)}a*a*$`)).toContain('adjacent repetitions');
  });

  it('refuses short repetitions in a row once they split a run in more than MAX_SHORT_WAYS ways', () => {
    // 17^3 ways are fine; 17^4 are not (54 ms at 61 characters unanchored, 17 times more with each one more).
    expect(17 ** 3).toBeLessThan(MAX_SHORT_WAYS);
    expect(17 ** 4).toBeGreaterThanOrEqual(MAX_SHORT_WAYS);
    expect(backtrackingRisk(`^${'a{0,16}'.repeat(3)}$`)).toBeNull();
    expect(backtrackingRisk(`^${'a{0,16}'.repeat(4)}$`)).toContain('("a{0,16}", "a{0,16}" and "a{0,16}"');
    // Seven classes of at most 16 before an @ (2 to 8.6 s on 61 characters, unanchored), and ten a{0,16}.
    expect(backtrackingRisk(`${'[a-z0-9_.+-]{0,16}'.repeat(7)}@`)).toContain('adjacent repetitions');
    expect(backtrackingRisk('a{0,16}'.repeat(10))).toContain('adjacent repetitions');
    // A required character between them that the run cannot pass ends it; fixed counts split nothing.
    expect(backtrackingRisk(`^${'a{0,16}-'.repeat(8)}$`)).toBeNull();
    expect(backtrackingRisk(`^${'a{16}'.repeat(8)}$`)).toBeNull();
    // Usual shapes with short repetitions pass: a phone number, an IPv4 address, a version.
    for (const pattern of [
      '^\\+?\\d{1,3}[-. ]?\\d{1,4}[-. ]?\\d{1,4}[-. ]?\\d{1,9}$',
      '^\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}$',
      '^v?\\d{1,5}\\.\\d{1,5}\\.\\d{1,5}(-[0-9A-Za-z.-]{1,64})?$',
    ])
      expect(backtrackingRisk(pattern), pattern).toBeNull();
  });

  it('follows a run past many other repetitions that may take nothing', () => {
    const letters = 'bcdefghij';
    const other = [...letters].map((letter) => `${letter}*`).join('');
    expect(backtrackingRisk(`^a*${other}a*${other}a*$`)).toContain('("a*", "a*" and "a*"');
  });
});
