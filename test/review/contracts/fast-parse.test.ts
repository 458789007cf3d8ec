// The fast validation path accepts only what zod accepts unchanged, so reading the input in place is reading zod's output.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { codeFileFastChecks, codeFileSchema } from '../../../src/review/contracts/code-report.js';
import {
  compiledFastCheck,
  type HandWrittenChecks,
  passesFastCheck,
} from '../../../src/review/contracts/fast-parse.js';
import { userStoryFastChecks, userStorySchema } from '../../../src/review/contracts/jira-tickets.js';
import { readWith } from '../../../src/review/contracts/metadata.js';
import { stageContractSchemas } from '../../../src/review/contracts/registry.js';
import { requirementFastChecks, requirementSchema } from '../../../src/review/contracts/requirement-spec.js';
import { testCaseFastChecks, testCaseSchema } from '../../../src/review/contracts/test-report.js';
import { cleanRun } from '../fixtures.js';

// Values that sit on every boundary the schemas draw: types, empty strings, lone surrogates, negatives, non-finite numbers.
const leaf = fc.oneof(
  fc.constantFrom(
    undefined,
    null,
    true,
    0,
    -1,
    3,
    2.5,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    '',
    'x',
    '\uD800',
    'FR-001',
    'US-001',
    'Sprint 2',
  ),
  fc.constantFrom('functional', 'non_functional', 'passed', 'failed', 'skipped', 'CRITICAL', 'HIGH', 'BRD'),
  fc.string({ maxLength: 3 }),
);
const value = fc.oneof(
  { arbitrary: leaf, weight: 4 },
  { arbitrary: fc.array(leaf, { maxLength: 3 }), weight: 2 },
  { arbitrary: fc.sparseArray(leaf, { maxLength: 3 }), weight: 1 },
  { arbitrary: fc.dictionary(fc.constantFrom('name', 'id', 'path'), leaf, { maxKeys: 2 }), weight: 1 },
);

// A valid item with one field replaced or removed (mostly), several fields changed, or any value at all.
function mutated(valid: Record<string, unknown>, keys: readonly string[]): fc.Arbitrary<unknown> {
  const fields = [...keys, 'extra'];
  const without = (item: Record<string, unknown>, removed: readonly string[]): Record<string, unknown> =>
    Object.fromEntries(Object.entries(item).filter(([key]) => !removed.includes(key)));
  return fc.oneof(
    {
      arbitrary: fc
        .tuple(fc.constantFrom(...fields), value)
        .map(([key, replacement]) => ({ ...valid, [key]: replacement })),
      weight: 4,
    },
    { arbitrary: fc.constantFrom(...fields).map((key) => without(valid, [key])), weight: 1 },
    {
      arbitrary: fc
        .tuple(fc.dictionary(fc.constantFrom(...fields), value, { maxKeys: 3 }), fc.subarray(fields, { maxLength: 2 }))
        .map(([replaced, removed]) => without({ ...valid, ...replaced }, removed)),
      weight: 2,
    },
    { arbitrary: value, weight: 1 },
  );
}

// Asserts the fast path's promise on one value: accepted ⇒ zod accepts it and outputs an equal value (prototypes aside).
function expectSound(schema: z.ZodType, input: unknown): void {
  if (!passesFastCheck(schema, input)) return;
  const parsed = schema.safeParse(input);
  expect(parsed.success).toBe(true);
  expect(parsed.data).toEqual(input);
}

const items: [string, z.ZodType, Record<string, unknown>, HandWrittenChecks][] = [
  [
    'requirement',
    requirementSchema,
    {
      id: 'FR-001',
      type: 'functional',
      category: 'security',
      title: 'Sign in',
      priority: 'must',
      acceptance: ['a'],
      source: 'x',
    },
    requirementFastChecks,
  ],
  [
    'user story',
    userStorySchema,
    {
      story_id: 'US-001',
      title: 't',
      linked_requirements: ['FR-001'],
      story_points: 3,
      sprint: 1,
      assignee: 'ana',
      blocked_by: ['US-002'],
      source: 'x',
    },
    userStoryFastChecks,
  ],
  [
    'code file',
    codeFileSchema,
    {
      path: 'src/a.ts',
      implements: ['US-001'],
      service: 'auth',
      endpoints: ['GET /a'],
      tables: ['users'],
      mitigates: ['THR-001'],
      source: 'x',
    },
    codeFileFastChecks,
  ],
  [
    'test case',
    testCaseSchema,
    {
      id: 'TC-001',
      story_ids: ['US-001'],
      requirement_ids: ['FR-001'],
      controls: ['SC-001'],
      status: 'passed',
      source: 'x',
    },
    testCaseFastChecks,
  ],
];

describe('fast validation path', () => {
  it.each(items)(
    'the hand-written %s predicate accepts exactly what the compiled schema predicate accepts',
    (_name, schema, valid, handWritten) => {
      const compiled = compiledFastCheck(schema);
      expect(compiled).not.toBeNull();
      expect(handWritten.get(schema)).toBeTypeOf('function');
      expect(passesFastCheck(schema, valid, handWritten)).toBe(true);
      fc.assert(
        fc.property(mutated(valid, Object.keys(valid)), (input) => {
          expect(passesFastCheck(schema, input, handWritten)).toBe(compiled?.(input));
          expectSound(schema, input);
        }),
        { numRuns: 2000 },
      );
    },
  );

  it('every canonical contract of a clean run takes the fast path, and every mutation it accepts is one zod accepts unchanged', () => {
    const run = cleanRun();
    for (const [key, schema] of Object.entries(stageContractSchemas)) {
      const document = run[key as keyof typeof run];
      expect(passesFastCheck(schema, document)).toBe(true);
      expect(compiledFastCheck(schema)).not.toBeNull();
      fc.assert(
        fc.property(mutated(document, Object.keys(document)), (input) => expectSound(schema, input)),
        { numRuns: 300 },
      );
    }
  });

  it('leaves an object with an own __proto__ key (which zod drops) to zod, at the top and in the hand-written item predicates', () => {
    const summary = JSON.parse('{"__proto__":0,"status":"PASS"}') as unknown;
    expect(passesFastCheck(stageContractSchemas.summary as z.ZodType, summary)).toBe(false);
    expectSound(stageContractSchemas.summary as z.ZodType, summary);
    for (const [, schema, valid, handWritten] of items) {
      const item = JSON.parse(`{"__proto__":{},${JSON.stringify(valid).slice(1)}`) as unknown;
      expect(passesFastCheck(schema, item, handWritten)).toBe(false);
      expect(compiledFastCheck(schema)?.(item)).toBe(false);
    }
  });

  it('any JSON value the fast path accepts, zod accepts unchanged', () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.values(stageContractSchemas)), fc.jsonValue(), (schema, input) =>
        expectSound(schema, input),
      ),
      { numRuns: 500 },
    );
  });

  it('uses a hand-written predicate only where it is passed: no schema carries one globally', () => {
    const spec = cleanRun().requirement_spec;
    const specSchema = stageContractSchemas.requirement_spec as z.ZodType;
    const rejectAll: HandWrittenChecks = new Map([[requirementSchema, () => false]]);
    expect(passesFastCheck(specSchema, spec)).toBe(true);
    expect(passesFastCheck(specSchema, spec, requirementFastChecks)).toBe(true);
    expect(passesFastCheck(specSchema, spec, rejectAll)).toBe(false);
    expect(passesFastCheck(specSchema, spec)).toBe(true);
    expect(passesFastCheck(requirementSchema, { id: 'FR-001', type: 'functional', title: 't' }, rejectAll)).toBe(false);
  });

  it('leaves a schema whose zod internals it does not know (another major version) to zod, which still decides', () => {
    const schema = z.looseObject({ id: z.string().min(1) });
    const future = Object.create(schema, {
      _zod: { value: { ...schema._zod, version: { major: 5, minor: 0, patch: 0 } } },
    }) as z.ZodType;
    expect(passesFastCheck(schema, { id: 'a' })).toBe(true);
    expect(passesFastCheck(future, { id: 'a' })).toBe(false);
    expect(readWith(future, { id: 'a' }, (parsed) => parsed)).toEqual({ ok: true, value: { id: 'a' } });
    expect(readWith(future, { id: '' }, (parsed) => parsed)).toMatchObject({ ok: false, issues: [{ path: ['id'] }] });
  });
});
