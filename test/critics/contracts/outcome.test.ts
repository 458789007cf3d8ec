import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCriticOutcomes } from '../../../src/critics/contracts/outcome.js';

const schema = JSON.parse(
  readFileSync(new URL('../../../schemas/critic-outcomes.schema.json', import.meta.url), 'utf8'),
) as object;
const shipped = new Ajv2020({ allErrors: true, strict: false }).compile(schema);

const file = (outcomes: unknown[]) => ({ schema_version: 1, outcomes });

describe('the outcomes file', () => {
  it('reads clean and defect records; the shipped schema agrees', () => {
    const value = file([
      { executionId: 'a', defect: false },
      { executionId: 'b', defect: true, origin: 'code', foundAt: 'post_deployment', reworkCostUsd: 4 },
      { executionId: 'c', defect: true, foundAt: 'test' },
    ]);
    expect(parseCriticOutcomes(value)).toMatchObject({ success: true, issues: [] });
    expect(shipped(value)).toBe(true);
  });

  it('names every wrong field at its path and an execution given twice', () => {
    const wrong = parseCriticOutcomes(
      file([
        { executionId: 'a', defect: true, reworkCostUsd: -2 },
        { executionId: '', defect: false, origin: 'x' },
      ]),
    );
    expect(wrong.success).toBe(false);
    expect(wrong.issues.map((issue) => issue.path.join('.'))).toEqual(
      expect.arrayContaining(['outcomes.0.foundAt', 'outcomes.0.reworkCostUsd', 'outcomes.1.executionId']),
    );
    const twice = parseCriticOutcomes(
      file([
        { executionId: 'a', defect: false },
        { executionId: 'a', defect: false },
      ]),
    );
    expect(twice).toMatchObject({
      success: false,
      issues: [{ code: 'duplicate_id', path: ['outcomes', 1, 'executionId'] }],
    });
    expect(parseCriticOutcomes(null).success).toBe(false);
  });

  it('accepts exactly what the shipped schema accepts (duplicates aside)', () => {
    const record = fc.record(
      {
        executionId: fc.oneof(fc.constant(''), fc.string({ minLength: 1, maxLength: 4 })),
        defect: fc.oneof(fc.boolean(), fc.constant('yes')),
        origin: fc.oneof(fc.constant(''), fc.constant('code')),
        foundAt: fc.constantFrom('', 'post_deployment', 'test'),
        reworkCostUsd: fc.oneof(fc.double({ min: -1, max: 5, noNaN: true }), fc.constant('3')),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(record, (outcome) => {
        expect(parseCriticOutcomes(file([outcome])).success).toBe(shipped(file([outcome])));
      }),
      { numRuns: 400 },
    );
  });
});
