import { readdirSync, readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';

// The shipped JSON Schemas, as an editor would use them through "$schema".
const load = (path: string): object =>
  JSON.parse(readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8')) as object;
const ajv = new Ajv2020({ allErrors: true, strict: false });

describe('shipped JSON Schemas', () => {
  const goal = ajv.compile(load('schemas/goal.schema.json'));

  it('accept every recipe goal of the examples', () => {
    for (const file of readdirSync(new URL('../../../examples/recipes/', import.meta.url)).filter((name) =>
      name.endsWith('.goal.json'),
    )) {
      expect(goal(load(`examples/recipes/${file}`)), `${file}: ${JSON.stringify(goal.errors)}`).toBe(true);
    }
  });

  it('reject what the parser rejects: an unknown operator, an unknown kind, a missing field', () => {
    const base = { schema_version: 1 };
    expect(
      goal({
        ...base,
        criteria: [{ id: 'm', kind: 'metric_threshold', source: 'feedback', metric: 'a', operator: '=~', value: 1 }],
      }),
    ).toBe(false);
    expect(goal({ ...base, criteria: [{ id: 'x', kind: 'shell' }] })).toBe(false);
    expect(goal({ ...base, criteria: [{ id: 'c', kind: 'command' }] })).toBe(false);
    expect(goal({ criteria: [] })).toBe(false);
  });

  it('tell criteria apart by kind: a misspelt key is two errors, one naming it, not one per kind', () => {
    const misspelt = { id: 'tests', kind: 'command', command: 'npm test', rerun_stage: ['05-code'] };
    expect(goal({ schema_version: 1, criteria: [misspelt] })).toBe(false);
    expect(goal.errors).toHaveLength(2);
    expect(goal.errors).toContainEqual(
      expect.objectContaining({ instancePath: '/criteria/0', params: { additionalProperty: 'rerun_stage' } }),
    );
    expect(goal({ schema_version: 1, criteria: [{ id: 'x', kind: 'shell', command: 'ls' }] })).toBe(false);
    expect(goal.errors).toEqual([expect.objectContaining({ instancePath: '/criteria/0/kind', keyword: 'enum' })]);
    expect(goal.errors?.[0]?.params).toEqual({
      allowedValues: ['file_exists', 'command', 'metric_threshold', 'judge', 'json_schema'],
    });
    expect(goal({ schema_version: 1, criteria: [{ id: 'q', kind: 'judge' }] })).toBe(false);
    expect(goal.errors?.map((error) => error.params)).toContainEqual({ missingProperty: 'question' });
    expect(goal.errors?.length).toBeLessThanOrEqual(2);
  });

  it('describe goal-verdict.json in its three shapes and feedback.json', () => {
    const verdict = ajv.compile(load('schemas/goal-verdict.schema.json'));
    const one = { criterion_id: 'design-review', verdict: 'FAIL', iteration: 2, recommendation: 'block' };
    expect(verdict(one)).toBe(true);
    expect(verdict([one])).toBe(true);
    expect(verdict({ verdicts: [one] })).toBe(true);
    expect(verdict({ verdict: 'MAYBE' })).toBe(false);
    expect(() => ajv.compile(load('schemas/feedback.schema.json'))).not.toThrow();
  });

  it('ship one schema per stage contract', () => {
    const stages = readdirSync(new URL('../../../schemas/stages/', import.meta.url));
    expect(stages).toContain('requirement-spec.schema.json');
    expect(stages).toContain('test-report.schema.json');
    for (const file of stages) expect(() => ajv.compile(load(`schemas/stages/${file}`))).not.toThrow();
  });
});
