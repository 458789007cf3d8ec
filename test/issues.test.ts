// How an issue reads in one line: its JSON path, what follows the first of several, a JSON text that does not parse.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatIssue, formatJsonPath, issuesFromZod, moreIssues, parseJsonText } from '../src/issues.js';

describe('formatJsonPath / formatIssue', () => {
  it('writes keys as properties where they can be, quoted where not, indexes in brackets', () => {
    expect(formatJsonPath([])).toBe('$');
    expect(formatJsonPath(['criteria', 1, 'operator'])).toBe('$.criteria[1].operator');
    expect(formatJsonPath(['files/f0.txt', '$schema', '_x', '0'])).toBe('$["files/f0.txt"].$schema._x["0"]');
    expect(formatIssue({ code: 'x', path: ['a', 0], message: 'wrong' })).toBe('$.a[0]: wrong');
  });
});

describe('moreIssues', () => {
  it('counts what follows the first issue, in the right number', () => {
    expect(moreIssues(0)).toBe('');
    expect(moreIssues(1)).toBe('');
    expect(moreIssues(2)).toBe(' (and 1 more issue)');
    expect(moreIssues(5)).toBe(' (and 4 more issues)');
  });
});

describe('parseJsonText', () => {
  it('gives the value, or one invalid_json issue at the document', () => {
    expect(parseJsonText('{"a": [1]}')).toEqual({ ok: true, value: { a: [1] } });
    expect(parseJsonText('{"a": ')).toEqual({
      ok: false,
      issue: { code: 'invalid_json', path: [], message: expect.stringMatching(/^Not valid JSON: /) },
    });
  });

  it('names a leading byte order mark for what it is', () => {
    const parsed = parseJsonText('\uFEFF{}');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.issue.message).toContain('byte order mark (U+FEFF)');
  });
});

describe('issuesFromZod', () => {
  it('keeps every issue of a failed parse, each at its path under the given prefix', () => {
    const parsed = z.object({ a: z.number(), b: z.array(z.string()) }).safeParse({ a: 'x', b: [1] });
    if (parsed.success) throw new Error('expected a failed parse');
    expect(issuesFromZod(parsed.error, ['criteria', 2]).map((issue) => formatJsonPath(issue.path))).toEqual([
      '$.criteria[2].a',
      '$.criteria[2].b[0]',
    ]);
  });
});
