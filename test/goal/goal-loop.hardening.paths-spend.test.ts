import { describe, expect, it } from 'vitest';
import { allPass, expectStop, goalJson, harness, metricFile, PATHS, runFile } from './helpers.js';

// Run files the loop must not trust: a metric source outside the run directory, a spend that is not a number.

describe('paths and spend', () => {
  it('a metric { file } must stay inside the run directory', async () => {
    const h = harness({
      [runFile('goal.json')]: goalJson([
        metricFile('own', 'metrics/own.json', '>=', 1),
        // Absolute, so only the evaluation can tell it lies outside the run dir (the memory root is /project).
        metricFile('other', '/project/.goal-loop/runs/r-0/metrics/own.json', '>=', 1),
      ]),
      [runFile('metrics/own.json')]: JSON.stringify({ value: 5 }),
      '.goal-loop/runs/r-0/metrics/own.json': JSON.stringify({ value: 5 }),
    });
    const evaluation = await h.loop(allPass()).evaluate();
    expect(evaluation.criteria.find((criterion) => criterion.id === 'own')?.status).toBe('PASS');
    const other = evaluation.criteria.find((criterion) => criterion.id === 'other');
    expect(other?.status).toBe('FAIL');
    expect(other?.detail).toContain('outside the run directory');
    expect(other?.refusedPath).toBe('$.criteria[1].source.file');
    // A refused path is a FAIL like any other (SPEC §5.2: RETRY); the no-progress stop ends a loop nothing changes.
    expect(evaluation.status).toBe('RETRY');
  });

  it('a metric { file } climbing out of the run directory with .. FAILs at evaluation, naming its JSON path', async () => {
    const h = harness({
      [runFile('goal.json')]: goalJson([metricFile('other', '../r-0/metrics/own.json', '>=', 1)]),
      '.goal-loop/runs/r-0/metrics/own.json': JSON.stringify({ value: 5 }),
    });
    const evaluation = await h.loop(allPass()).evaluate();
    expect(evaluation.status).toBe('RETRY');
    expect(evaluation.issues).toEqual([]);
    expect(evaluation.criteria[0]).toMatchObject({ status: 'FAIL', refusedPath: '$.criteria[0].source.file' });
  });

  it('a cumulative_cost_usd that is not a number stops the loop with INVALID_CONTRACT and is not overwritten', async () => {
    const metrics = JSON.stringify({ cumulative_cost_usd: 'twelve', tokens: 7 });
    const h = harness({ [PATHS.metrics]: metrics });
    await expect(h.loop(allPass(), { budgetUsd: 5 }).run()).rejects.toMatchObject({
      code: 'INVALID_CONTRACT',
      message: expect.stringContaining('cumulative_cost_usd'),
    });
    expect(await h.fs.readText(PATHS.metrics)).toBe(metrics);
    expect(await h.fs.readText(PATHS.lock)).toBeNull();
  });

  it('a numeric-string spend counts against the budget', async () => {
    const h = harness({ [PATHS.metrics]: JSON.stringify({ cumulative_cost_usd: '12.0' }) });
    const runner = allPass();
    expectStop(await h.loop(runner, { budgetUsd: 5 }).run(), 'budget_exhausted', 7);
    expect(runner.calls).toEqual([]);
  });
});
