import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { complement, disjoint, mergeRanges } from '../../src/kit/char-ranges.js';
import { backtrackingRisk, backtracksExponentially, MAX_GROUP_DEPTH } from '../../src/kit/regex-backtracking.js';

// Patterns known to backtrack exponentially on a near-match, and common ones that do not.
const RISKY = [
  '^(a+)+$',
  '^(a*)*$',
  '(\\w+\\s?)*',
  '^([a-z]+-?)+$',
  '(x+x+)+y',
  '(?:a|b+){2,}',
  '((ab)*c*)+',
  '(.*a){12}',
  '^(\\d+)*$',
  '^(?<word>[a-z]+)+$',
  '^([^,]+,?)+$',
  // Escapes read whole, so what follows them is not taken for a separator.
  '^(\\x61+)+$',
  '^(\\u0061+)+$',
  '^(\\u{61}+)+$',
  '^(\\p{L}+)+$',
  '^(\\1+)+$',
  // `[]` matches nothing (it separates no pass), and a bound is read however long.
  '^(a+[]?)+$',
  '^(a+){2,99999999999999999999999999999999}$',
  // A bounded inner repetition of varying length splits a run between passes as an unbounded one does.
  '^(a{1,30}){1,30}$',
  '^(?:\\d{1,3}){2,}$',
  '^((ab){1,3})+$',
  '^(a?a?){1,30}$',
  '^(\\w{2,8}\\s?){1,10}$',
  // A cycle whose last atom overlaps its first (`a+` … `a+`), or whose neighbours overlap, still splits many ways.
  '^(a+b+a+)*$',
  '^(\\w+\\d+)*$',
  '^(\\d+\\.?)+$',
];
const SAFE = [
  '^[a-z]+(-[a-z]+)*$',
  '^(\\d+\\.)+\\d+$',
  '^([A-Z][a-z]+)+$',
  '^([a-z0-9]+\\.)+[a-z]{2,}$',
  '^\\((\\w+,)*\\w+\\)$',
  '^([^,]+,)+$',
  '(foo|bar)+',
  '^\\d{3}-\\d{4}$',
  '^(?:[a-z0-9-]+)$',
  '[(+*)]+',
  'a+b+c+',
  '^(\\d+[a-z]+,)+$',
  '^\\d{2}-[a-z]+(?:-[a-z]+)*$',
  '^(\\w+\\u0020)*\\w+$',
  '^([a-z]+\\x2d)+$',
  // A fixed count takes one length; a varying one is fine with a separator, or under no repetition.
  '^(\\d{2}){1,5}$',
  '^(ab){2,3}$',
  '^(\\d{1,3}\\.){3}\\d{1,3}$',
  '^(a{1,30}-){1,30}$',
  '^(a{1,30}){1}$',
  // Passes whose atoms alternate between disjoint sets, the last disjoint from the first, split one way only.
  '^[^\\s]+(\\s+[^\\s]+)*$',
  '^(\\w+\\s+)*\\w+$',
  '^[a-z]+( +[a-z]+)*$',
  '^\\d+(\\s+\\d+)*$',
  '^[a-z]+(-+[a-z]+)*$',
  '^(a{1,3}b+)+$',
];

describe('backtracksExponentially', () => {
  it.each(RISKY)('flags %s', (pattern) => {
    expect(backtracksExponentially(pattern)).toBe(true);
  });

  it.each(SAFE)('accepts %s', (pattern) => {
    expect(backtracksExponentially(pattern)).toBe(false);
  });

  it('never throws, whatever the source (unbalanced groups, stray escapes, unclosed classes)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'()[]{}|*+?\\^$.-,aZ09:=!<>dDwWsSbBxupPkc') }), (source) => {
        expect(typeof backtracksExponentially(source)).toBe('boolean');
      }),
    );
  });

  it('a risky pattern stays risky inside any group, prefix or suffix; a separator makes (X+)+ safe', () => {
    const classes = fc.constantFrom('[a-z]', '\\d', '\\w', 'a', '[^,]', '.');
    fc.assert(
      fc.property(classes, fc.constantFrom('', 'x', '^', '[0-9]'), (inner, context) => {
        const risky = `(${inner}+)+`;
        expect(backtracksExponentially(`${context}${risky}${context}`)).toBe(true);
        expect(backtracksExponentially(`(?:${risky})`)).toBe(true);
        // The separator is a character the inner class cannot match.
        const separator = inner === '.' ? null : inner === '[^,]' ? ',' : '!';
        if (separator !== null) expect(backtracksExponentially(`(${inner}+${separator})+`)).toBe(false);
      }),
    );
  });
});

describe('a repetition of variable length under a repeated group', () => {
  it('is refused exactly when its length varies and the group may repeat, unless a separator follows it', () => {
    const count = fc.tuple(fc.nat(40), fc.nat(40)).map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const);
    fc.assert(
      fc.property(count, count, fc.constantFrom('a', '\\d', '[a-z]', '[^!]'), ([min, max], [low, high], atom) => {
        const inner = `${atom}{${min},${max}}`;
        const risk = backtrackingRisk(`^(${inner}){${low},${high}}$`);
        expect(risk === null ? 'accepted' : risk).toEqual(
          min < max && high > 1 ? expect.stringContaining('holds a repetition') : 'accepted',
        );
        expect(backtrackingRisk(`^(${inner}!){${low},${high}}$`)).toBeNull();
      }),
    );
  });
});

describe('backtrackingRisk', () => {
  it('refuses groups nested past the limit with its own reason, without walking them (no stack overflow)', () => {
    const deep = (levels: number): string => `${'('.repeat(levels)}a${'){2}'.repeat(levels)}`;
    expect(backtrackingRisk(deep(5000))).toBe(`nests groups more than ${MAX_GROUP_DEPTH} deep`);
    expect(backtrackingRisk(deep(MAX_GROUP_DEPTH + 1))).toBe(`nests groups more than ${MAX_GROUP_DEPTH} deep`);
    expect(backtrackingRisk(deep(MAX_GROUP_DEPTH))).toBeNull();
    // Parentheses inside a class or escaped are not groups.
    expect(backtrackingRisk(`[${'('.repeat(400)}]\\${'\\('.repeat(300)}`)).toBeNull();
  });

  it('reads a modifiers group as a group: its colon is not a separator', () => {
    expect(backtrackingRisk('^(?i:a+)+$')).toContain('repeats a group that holds a repetition');
    expect(backtrackingRisk('^(?-s:a)+$')).toBeNull();
  });
});

describe('character ranges', () => {
  // Ranges over a small alphabet, and the same set as a plain set of code points.
  const ranges = fc.array(
    fc
      .tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 8 }))
      .map(([low, width]) => [low, low + width] as const),
  );
  const points = (list: readonly (readonly [number, number])[]): Set<number> => {
    const out = new Set<number>();
    for (const [low, high] of list) for (let code = low; code <= Math.min(high, 60); code++) out.add(code);
    return out;
  };

  it('merge keeps the same characters, sorted and disjoint; complement holds exactly the others', () => {
    fc.assert(
      fc.property(ranges, (list) => {
        const merged = mergeRanges(list);
        expect(points(merged)).toEqual(points(list));
        for (let index = 1; index < merged.length; index++)
          expect((merged[index] as [number, number])[0]).toBeGreaterThan(
            (merged[index - 1] as [number, number])[1] + 1,
          );
        const outside = points(complement(merged));
        for (let code = 0; code <= 60; code++) expect(outside.has(code)).toBe(!points(list).has(code));
      }),
    );
  });

  it('disjoint is true exactly when no code point is in both', () => {
    fc.assert(
      fc.property(ranges, ranges, (a, b) => {
        const shared = [...points(a)].some((code) => points(b).has(code));
        expect(disjoint(mergeRanges(a), mergeRanges(b))).toBe(!shared);
      }),
    );
  });
});

describe('the dot and the flags it is compiled with', () => {
  const LINES = ['^(.+\\n)*.+$', '^(.*\\n)*.*$', '^(.+\\r?\\n)*.+$'];

  it.each(LINES)(
    '%s is fine without the s flag (ajv compiles patterns with u only): . never takes a newline',
    (source) => {
      expect(backtrackingRisk(source, 'u')).toBeNull();
      // With the flags unknown, or with s, the dot may take the newline that separates the passes.
      expect(backtrackingRisk(source)).not.toBeNull();
      expect(backtrackingRisk(source, 'su')).not.toBeNull();
      expect(backtrackingRisk(`(?s:${source})`, 'u')).not.toBeNull();
    },
  );

  it('still refuses what the dot overlaps on other characters', () => {
    expect(backtrackingRisk('^(.+a)*$', 'u')).not.toBeNull();
    expect(backtrackingRisk('^(.|\\w)+$', 'u')).not.toBeNull();
  });
});
