import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backtrackingConstruct, withJavaScriptClasses } from '../../src/kit/regex-syntax.js';

describe('backtrackingConstruct', () => {
  it('names each backreference and lookaround by the text that opens it', () => {
    const cases: [string, string][] = [
      ['(a)\\1', 'the backreference "\\1"'],
      ['(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\\10', 'the backreference "\\10"'],
      ['(?<x>a)\\k<x>', 'the backreference "\\k<x>"'],
      ['a(?=b)', 'the lookahead "(?="'],
      ['a(?!b)', 'the negative lookahead "(?!"'],
      ['(?<=a)b', 'the lookbehind "(?<="'],
      ['(?<!a)b', 'the negative lookbehind "(?<!"'],
    ];
    for (const [source, named] of cases) expect(backtrackingConstruct(source), source).toBe(named);
  });

  it('reads classes and escapes whole: the same characters there are plain ones', () => {
    for (const source of [
      '[(?=]',
      '[(?<!]x',
      '\\(?=',
      '\\\\(?:a)',
      '(?:a)',
      '(?<name>a)',
      '\\0',
      '[\\]](?:x)',
      'a\\d\\w',
    ])
      expect(backtrackingConstruct(source), source).toBeNull();
    expect(backtrackingConstruct('[(?=]\\\\(?=a)')).toBe('the lookahead "(?="');
    expect(backtrackingConstruct('[\\]]\\2')).toBe('the backreference "\\2"');
  });

  it('finds nothing in a pattern without a group opening or a backslash', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', '[', ']', '?', '=', '!', '<', '1', 'k', '*') }), (source) => {
        expect(backtrackingConstruct(source)).toBeNull();
      }),
    );
  });
});

describe('withJavaScriptClasses', () => {
  // Every character where JavaScript's `.` or `\s` and RE2's part, and a few where they agree.
  const CHARS = ['a', ' ', '\t', '\n', '\r', '\v', '\f', '\u00a0', '\u2028', '\u2029', '\u3000', '\ufeff', '\u200b'];

  it('spells `.`, `\\s` and `\\S` as JavaScript means them, outside classes and `\\s` inside one', () => {
    expect(withJavaScriptClasses('a.b')).toBe('a[^\\n\\r\\x{2028}\\x{2029}]b');
    expect(withJavaScriptClasses('[.]\\.')).toBe('[.]\\.');
    expect(withJavaScriptClasses('\\\\s')).toBe('\\\\s');
    expect(withJavaScriptClasses('[a\\s]')).toMatch(/^\[a\\t\\n\\v.*\\x\{feff\}\]$/);
    expect(withJavaScriptClasses('\\S')).toMatch(/^\[\^\\t.*\]$/);
    expect(withJavaScriptClasses('[[]')).toBe('[\\[]');
  });

  it('gives classes that hold what JavaScript holds, character by character', () => {
    for (const [js, wanted] of [
      ['.', /./u],
      ['\\s', /\s/u],
      ['\\S', /\S/u],
    ] as const) {
      const rewritten = new RegExp(
        withJavaScriptClasses(js).replace(/\\x\{([0-9a-f]+)\}/g, (_, hex: string) => `\\u{${hex}}`),
        'u',
      );
      for (const char of CHARS)
        expect(rewritten.test(char), `${js} on U+${char.codePointAt(0)}`).toBe(wanted.test(char));
    }
  });
});
