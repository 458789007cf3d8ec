import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SLOW_SHAPES } from '../../bench/regex-shapes.js';
import { linearRegExp, MAX_PATTERN_PROGRAM } from '../../src/runtime/linear-regexp.js';

const refusal = (pattern: string): string => {
  try {
    linearRegExp(pattern, 'u');
  } catch (error) {
    return (error as Error).message;
  }
  return 'compiled';
};

describe('linearRegExp', () => {
  it.each(SLOW_SHAPES)('completes $name with the right result', ({ pattern, nearMiss, match }) => {
    const compiled = linearRegExp(pattern, 'u');
    expect(compiled.test(nearMiss)).toBe(false);
    expect(compiled.test(match)).toBe(true);
  });

  it('refuses what JavaScript refuses, what needs backtracking and what RE2 lacks, naming the pattern', () => {
    expect(refusal('((')).toMatch(/^Invalid regular expression: \/\(\(\/u/);
    expect(refusal('a{,2}')).toMatch(/^Invalid regular expression/);
    expect(refusal('(a)\\1')).toBe(
      'pattern "(a)\\\\1" holds the backreference "\\1", which needs a backtracking engine: patterns run on RE2, in time linear in the value, without backreferences or lookarounds',
    );
    expect(refusal('\\p{Script=Greek}')).toMatch(/^pattern "\\\\p\{Script=Greek\}" is not supported by RE2: /);
    expect(refusal('a{1001}')).toMatch(/^pattern "a\{1001\}" is not supported by RE2: .*invalid repeat count/);
  });

  it('caps the compiled program', () => {
    expect(refusal('^[a-z]{0,990}$')).toBe('compiled');
    expect(refusal('^[a-z]{0,999}[0-9]{0,9}$')).toMatch(
      new RegExp(
        `^pattern "\\^\\[a-z\\]\\{0,999\\}\\[0-9\\]\\{0,9\\}\\$" compiles to \\d+ RE2 instructions, more than ${MAX_PATTERN_PROGRAM}`,
      ),
    );
  });

  it('agrees with JavaScript on the classes RE2 spells otherwise, and on Unicode', () => {
    const cases: [string, string, boolean][] = [
      ['^\\s$', '\u00a0', true],
      ['^\\s$', '\v', true],
      ['^\\S$', '\u3000', false],
      ['^[\\s]$', '\ufeff', true],
      ['^.$', '\r', false],
      ['^.$', '\u2028', false],
      ['^.$', '😀', true],
      ['^\\u{1F600}$', '😀', true],
      ['^[^]$', '\n', true],
      ['^[]$', '', false],
      ['^\\p{Lu}+$', 'ÉA', true],
      ['^\\w+$', 'é', false],
      ['^\\d$', '٣', false],
      ['^(?<year>\\d{4})$', '2024', true],
    ];
    for (const [pattern, value, wanted] of cases) {
      expect(new RegExp(pattern, 'u').test(value), `JavaScript ${pattern}`).toBe(wanted);
      expect(linearRegExp(pattern, 'u').test(value), pattern).toBe(wanted);
    }
  });

  it('agrees with JavaScript on patterns built from common atoms, on any value', () => {
    const atom = fc.constantFrom(
      'a',
      'b',
      '.',
      '\\s',
      '\\S',
      '\\d',
      '\\w',
      '[a-c]',
      '[^a]',
      '[\\s.]',
      '(?:a|bc)',
      '\\u00a0',
    );
    const quantifier = fc.constantFrom('', '*', '+', '?', '{1,3}', '*?');
    const pattern = fc
      .array(fc.tuple(atom, quantifier), { minLength: 1, maxLength: 5 })
      .chain((parts) =>
        fc.constantFrom(...['', '^']).map((start) => `${start}${parts.map((p) => p.join('')).join('')}`),
      );
    const value = fc.string({
      unit: fc.constantFrom('a', 'b', 'c', '1', ' ', '\n', '\r', '\v', '\u00a0', '\u2028', 'é'),
      maxLength: 8,
    });
    fc.assert(
      fc.property(pattern, value, (source, text) => {
        expect(linearRegExp(source, 'u').test(text), `${source} on ${JSON.stringify(text)}`).toBe(
          new RegExp(source, 'u').test(text),
        );
      }),
      { numRuns: 500 },
    );
  });
});
