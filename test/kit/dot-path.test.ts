import fc from 'fast-check';
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

  it('agrees with a walk over the split segments, `at` included, for any document and path', () => {
    // The walk spelled out segment by segment: where it stops is the segments up to the one it stopped at.
    const bySegments = (value: unknown, path: string): unknown => {
      const segments = path.split('.');
      let cursor = value;
      for (let index = 0; index < segments.length; index += 1) {
        const at = segments.slice(0, index + 1).join('.');
        const segment = segments[index] as string;
        if (segment === '') return { found: false, at, why: 'empty path segment' };
        const step = readDotPath(cursor, segment);
        if (!step.found) return { found: false, at, why: step.why };
        cursor = step.value;
      }
      return { found: true, value: cursor };
    };
    const segment = fc.constantFrom('', 'a', 'b', '0', '1', '01', 'length', 'constructor', 'x y');
    // Documents whose keys are the segments' own, so that walks go deep before they stop.
    const { documents } = fc.letrec((tie) => ({
      documents: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue({ maxDepth: 0 }),
        fc.array(tie('documents'), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom('a', 'b', '0', 'length', 'x y'), tie('documents'), { maxKeys: 3 }),
      ),
    }));
    fc.assert(
      fc.property(
        documents,
        fc.array(segment, { minLength: 1, maxLength: 5 }).map((segments) => segments.join('.')),
        (document, path) => {
          expect(readDotPath(document, path)).toEqual(bySegments(document, path));
        },
      ),
      { numRuns: 2_000 },
    );
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
