// The verdict parser's fast path accepts exactly what verdictSchema accepts, and keeps only entries zod would return
// unchanged, so the verdicts it keeps in place are zod's output.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCanonicalVerdict, parseVerdictFile, verdictSchema } from '../../../src/goal/contracts/verdict.js';

// Values on every boundary the schema draws: types, empty strings, negative, fractional, unsafe and non-finite numbers.
const boundaries = [
  undefined,
  null,
  true,
  0,
  -0,
  -1,
  3,
  2.5,
  2 ** 53,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '',
  'x',
  'PASS',
  'FAIL',
  'pass',
  'retry',
  'block',
  '03-code',
];
const leaf = fc.oneof(
  fc.constantFrom(...boundaries),
  fc.array(fc.constantFrom('', '03-code', 3, null), { maxLength: 3 }),
  fc.sparseArray(fc.constant('03-code'), { maxLength: 3 }),
  fc.dictionary(fc.constantFrom('verdict', 'x'), fc.constant('PASS'), { maxKeys: 2, noNullPrototype: true }),
);
const fields = [
  'criterion_id',
  'verdict',
  'judge',
  'reasoning',
  'score',
  'iteration',
  'recommendation',
  'recommended_rerun_stages',
  'extra',
] as const;
const valid = {
  criterion_id: 'judge-1',
  verdict: 'FAIL',
  judge: 'host',
  reasoning: 'r',
  score: 0.5,
  iteration: 2,
  recommendation: 'block',
  recommended_rerun_stages: ['03-code'],
};
// A valid verdict with some fields replaced or removed, or any value at all.
const entries = fc.oneof(
  fc
    .tuple(
      fc.dictionary(fc.constantFrom(...fields), leaf, { maxKeys: 3, noNullPrototype: true }),
      fc.subarray([...fields], { maxLength: 3 }),
    )
    .map(([replaced, removed]) =>
      Object.fromEntries(Object.entries({ ...valid, ...replaced }).filter(([key]) => !removed.includes(key as never))),
    ),
  leaf,
);

// Asserts the fast path's promise on one entry: it accepts what zod accepts, and zod returns those unchanged.
function expectEquivalent(entry: unknown): void {
  const parsed = verdictSchema.safeParse(entry);
  expect(isCanonicalVerdict(entry)).toBe(parsed.success);
  if (parsed.success) expect(parsed.data).toEqual(entry);
}

describe('isCanonicalVerdict', () => {
  it('agrees with verdictSchema on every field set to every boundary value', () => {
    for (const field of fields) for (const value of boundaries) expectEquivalent({ ...valid, [field]: value });
  });

  it('accepts exactly the plain data verdictSchema accepts, and zod returns those entries unchanged', () => {
    fc.assert(fc.property(entries, expectEquivalent), { numRuns: 3_000 });
  });

  it('leaves an own __proto__ key to zod, which drops it', () => {
    const entry = JSON.parse('{"verdict":"PASS","__proto__":{"x":1}}');
    expect(isCanonicalVerdict(entry)).toBe(false);
    expect(parseVerdictFile([entry]).verdicts).toEqual([{ verdict: 'PASS' }]);
  });

  it('keeps in place only plain data; zod copies class instances, null-prototype objects and array subclasses', () => {
    class Verdict {
      verdict = 'PASS';
    }
    class Stages extends Array<string> {}
    const bare = Object.assign(Object.create(null), { verdict: 'FAIL' });
    const subclassed = { verdict: 'FAIL', recommended_rerun_stages: Stages.from(['03-code']) };
    for (const entry of [new Verdict(), bare, subclassed]) {
      expect(isCanonicalVerdict(entry)).toBe(false);
      const [kept] = parseVerdictFile([entry]).verdicts;
      expect(kept).not.toBe(entry);
      expect(kept).toEqual({ ...entry });
    }
    const plain = { verdict: 'PASS', recommended_rerun_stages: ['03-code'] };
    expect(parseVerdictFile([plain]).verdicts[0]).toBe(plain);
  });

  it('keeps in place only entries that name known stages; the others are reported as before', () => {
    const kept = { criterion_id: 'a', verdict: 'PASS', recommended_rerun_stages: ['03-code'] };
    const unknown = { criterion_id: 'b', verdict: 'FAIL', recommended_rerun_stages: ['09-nope'] };
    const parsed = parseVerdictFile({ verdicts: [kept, unknown] }, { stages: ['03-code'] });
    expect(parsed.verdicts).toEqual([kept]);
    expect(parsed.verdicts[0]).toBe(kept);
    expect(parsed.issues).toEqual([
      expect.objectContaining({ code: 'unknown_stage', path: ['verdicts', 1, 'recommended_rerun_stages', 0] }),
    ]);
  });
});
