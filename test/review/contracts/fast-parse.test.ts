// The fast validation path accepts exactly what zod accepts, and only values zod returns unchanged, so reading the input in place is reading zod's output.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FastCheck } from '../../../src/kit/zod-fast-path.js';
import { isMetadataOnly, metadataOnlySchema, readWith } from '../../../src/review/contracts/metadata.js';
import { isCanonicalRequirementSpec, requirementSpecSchema } from '../../../src/review/contracts/requirement-spec.js';
import { documents, items, run } from './canonical-values.js';
import { expectEquivalent, mutated } from './fast-path-mutations.js';

// True when some object in a JSON value has an own `__proto__` key.
function hasOwnProto(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (!Array.isArray(value) && Object.hasOwn(value, '__proto__')) return true;
  return Object.values(value).some(hasOwnProto);
}

describe('fast validation path', () => {
  it.each(items)('the %s predicate accepts exactly what its zod schema accepts', (_name, schema, valid, fast) => {
    expect(fast(valid)).toBe(true);
    fc.assert(
      fc.property(mutated(valid, Object.keys(valid)), (input) => expectEquivalent(schema, fast, input)),
      { numRuns: 2000 },
    );
  });

  it.each(documents)(
    'the %s predicate accepts the clean run and exactly what its zod schema accepts of its mutations',
    (_name, schema, document, fast) => {
      expect(fast(document)).toBe(true);
      fc.assert(
        fc.property(mutated(document, Object.keys(document)), (input) => expectEquivalent(schema, fast, input)),
        { numRuns: 300 },
      );
    },
  );

  it('leaves an object with an own __proto__ key (which zod drops) to zod, at the top and in the item predicates', () => {
    const summary = JSON.parse('{"__proto__":0,"status":"PASS"}') as unknown;
    expect(isMetadataOnly(summary)).toBe(false);
    expect(readWith(metadataOnlySchema, summary, (parsed) => parsed, isMetadataOnly)).toMatchObject({ ok: true });
    for (const [, , valid, fast] of items) {
      const item = JSON.parse(`{"__proto__":{},${JSON.stringify(valid).slice(1)}`) as unknown;
      expect(fast(item)).toBe(false);
    }
  });

  it('any JSON value a document predicate accepts, zod accepts unchanged', () => {
    fc.assert(
      // A value with an own `__proto__` key is left to zod on purpose (the test above): fc.jsonValue() can make one.
      fc.property(fc.constantFrom(...documents), fc.jsonValue(), ([, schema, , fast], input) => {
        fc.pre(!hasOwnProto(input));
        expectEquivalent(schema, fast, input);
      }),
      { numRuns: 500 },
    );
  });

  it('uses a predicate only where it is passed; a predicate that rejects leaves the value to zod, which still decides', () => {
    const spec = run.requirement_spec;
    const rejectAll: FastCheck = () => false;
    const read = (fast?: FastCheck) => readWith(requirementSpecSchema, spec, (parsed) => parsed, fast);
    expect(read()).toEqual({ ok: true, value: spec });
    expect(read(rejectAll)).toEqual({ ok: true, value: spec });
    expect(read(isCanonicalRequirementSpec)).toEqual({ ok: true, value: spec });
    expect(
      readWith(
        requirementSpecSchema,
        { requirements: [{ id: '', type: 'functional', title: 't' }] },
        (parsed) => parsed,
        rejectAll,
      ),
    ).toMatchObject({
      ok: false,
      issues: [{ path: ['requirements', 0, 'id'] }],
    });
  });

  it('reads a value the predicate accepts in place, without a copy', () => {
    const spec = run.requirement_spec;
    const read = readWith(requirementSpecSchema, spec, (parsed) => parsed, isCanonicalRequirementSpec);
    expect(read.ok && read.value).toBe(spec);
  });
});
