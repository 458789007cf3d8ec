import fc from 'fast-check';
import { expect } from 'vitest';
import type { z } from 'zod';
import type { FastCheck } from '../../../src/kit/zod-fast-path.js';

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
    // Ids at and past MAX_ID_LENGTH.
    'I'.repeat(256),
    'I'.repeat(257),
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

/** A valid item with one field replaced or removed (mostly), several fields changed, or any value at all. */
export function mutated(valid: Record<string, unknown>, keys: readonly string[]): fc.Arbitrary<unknown> {
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

/** Asserts the fast path's promise on one value: it accepts exactly what zod accepts, and zod outputs an equal value for it (prototypes aside). */
export function expectEquivalent(schema: z.ZodType, fast: FastCheck, input: unknown): void {
  const parsed = schema.safeParse(input);
  expect(fast(input)).toBe(parsed.success);
  if (parsed.success) expect(parsed.data).toEqual(input);
}
