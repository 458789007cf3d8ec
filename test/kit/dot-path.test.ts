import { describe, expect, it } from 'vitest';
import { readDotPath, readOwn } from '../../src/kit/dot-path.js';

describe('readDotPath', () => {
  const doc = { summary: { critical_count: 2, nested: { list: [{ c: 'x' }, null] } }, zero: 0, nil: null };

  it('reads nested keys and array indexes', () => {
    expect(readDotPath(doc, 'summary.critical_count')).toEqual({ found: true, value: 2 });
    expect(readDotPath(doc, 'summary.nested.list.0.c')).toEqual({ found: true, value: 'x' });
    expect(readDotPath(doc, 'summary.nested.list.1')).toEqual({ found: true, value: null });
  });

  it('finds falsy values (0, null) as found', () => {
    expect(readDotPath(doc, 'zero')).toEqual({ found: true, value: 0 });
    expect(readDotPath(doc, 'nil')).toEqual({ found: true, value: null });
  });

  it('reports a missing key with where it stopped', () => {
    expect(readDotPath(doc, 'summary.warning_count')).toEqual({
      found: false,
      at: 'summary.warning_count',
      why: 'no key "warning_count"',
    });
  });

  it('refuses non-canonical or out-of-range array indexes', () => {
    expect(readDotPath(doc, 'summary.nested.list.2').found).toBe(false);
    expect(readDotPath(doc, 'summary.nested.list.01').found).toBe(false);
    expect(readDotPath(doc, 'summary.nested.list.-1').found).toBe(false);
    expect(readDotPath(doc, 'summary.nested.list.x').found).toBe(false);
  });

  it('never walks into the prototype', () => {
    expect(readDotPath({}, 'constructor').found).toBe(false);
    expect(readDotPath({}, '__proto__').found).toBe(false);
  });

  it('reads the item count of an array at `length`, as rstack-agents does; never of a string', () => {
    expect(readDotPath({ issues: [] }, 'issues.length')).toEqual({ found: true, value: 0 });
    expect(readDotPath(doc, 'summary.nested.list.length')).toEqual({ found: true, value: 2 });
    expect(readDotPath([[1, 2, 3]], '0.length')).toEqual({ found: true, value: 3 });
    expect(readDotPath({ issues: { length: 4 } }, 'issues.length')).toEqual({ found: true, value: 4 });
    expect(readDotPath({ issues: [] }, 'issues.length.x')).toMatchObject({ found: false, at: 'issues.length.x' });
    expect(readDotPath({ title: 'text' }, 'title.length')).toEqual({
      found: false,
      at: 'title.length',
      why: 'cannot read "length" of string ("length" counts array items only)',
    });
  });

  it('treats empty segments as not found', () => {
    expect(readDotPath(doc, 'summary..critical_count')).toMatchObject({ found: false, why: 'empty path segment' });
    expect(readDotPath(doc, '.summary').found).toBe(false);
    expect(readDotPath(doc, 'summary.').found).toBe(false);
  });

  it('stops at primitives and null without throwing', () => {
    expect(readDotPath(doc, 'zero.x')).toMatchObject({ found: false, at: 'zero.x' });
    expect(readDotPath(doc, 'nil.x')).toMatchObject({ found: false, why: 'cannot read "x" of null' });
    expect(readDotPath(undefined, 'a').found).toBe(false);
  });
});

describe('readOwn', () => {
  it('reads own properties only', () => {
    const record: Record<string, number> = { a: 1 };
    expect(readOwn(record, 'a')).toBe(1);
    expect(readOwn(record, 'constructor')).toBeUndefined();
    expect(readOwn(record, 'toString')).toBeUndefined();
  });
});
