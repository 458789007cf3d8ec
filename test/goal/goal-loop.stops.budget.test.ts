import { describe, expect, it } from 'vitest';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import { expectStop, harness, PATHS, passed, readEvents, readState, runFile, typesOf } from './helpers.js';

describe('GoalLoop stops: budget_exhausted (exit 7)', () => {
  const costly = () =>
    createScriptedStageRunner({
      a: { status: 'passed', costUsd: 0.4 },
      b: { status: 'passed', costUsd: 0.4 },
      c: { status: 'passed', costUsd: 0.4 },
    });

  it('stops after the stage that reaches the budget, overshooting by at most that stage, and writes metrics.json', async () => {
    const h = harness();
    const runner = costly();
    const result = await h.loop(runner, { budgetUsd: 0.7 }).run();
    expectStop(result, 'budget_exhausted', 7);
    expect(runner.stageIds()).toEqual(['a', 'b']);
    expect(result.spentUsd).toBeCloseTo(0.8);
    expect(result.spentUsd - 0.7).toBeLessThanOrEqual(0.4);
    expect(JSON.parse((await h.fs.readText(PATHS.metrics)) ?? '{}')).toMatchObject({ cumulative_cost_usd: 0.8 });
    expect(typesOf(await readEvents(h.fs))).not.toContain('goal_evaluated');
  });

  it('costs past the largest double stop the run at that sum, which the records keep: it resumes', async () => {
    const h = harness();
    const huge = createScriptedStageRunner({
      a: { status: 'passed', costUsd: 1e308 },
      b: { status: 'passed', costUsd: 1e308 },
    });
    const result = await h.loop(huge, { budgetUsd: Number.MAX_VALUE }).run();
    expectStop(result, 'budget_exhausted', 7);
    expect(result.spentUsd).toBe(Number.MAX_VALUE);
    expect(JSON.parse((await h.fs.readText(PATHS.metrics)) ?? '{}')).toEqual({ cumulative_cost_usd: Number.MAX_VALUE });
    expect((await readState(h.fs))?.spent_usd).toBe(Number.MAX_VALUE);
    expectStop(await h.loop(costly(), { budgetUsd: Number.MAX_VALUE }).run(), 'budget_exhausted', 7);
  });

  it('stops before an iteration when the run has already spent its budget', async () => {
    const h = harness();
    await h.loop(costly(), { budgetUsd: 0.7 }).run();
    const runner = costly();
    const result = await h.loop(runner, { budgetUsd: 0.7 }).run();
    expectStop(result, 'budget_exhausted', 7);
    expect(runner.calls).toHaveLength(0);
    expect(result).toMatchObject({ iterations: 0, iteration: 1 });
  });

  it('stops before the first iteration with a zero budget', async () => {
    const h = harness();
    const runner = costly();
    expectStop(await h.loop(runner, { budgetUsd: 0 }).run(), 'budget_exhausted', 7);
    expect(runner.calls).toHaveLength(0);
  });

  it('writes cumulative_cost_usd into metrics.json and keeps its other fields', async () => {
    const h = harness({ [runFile('metrics.json')]: JSON.stringify({ tokens: 12 }) });
    const runner = createScriptedStageRunner({
      a: { status: 'passed', costUsd: 0.25 },
      b: { status: 'passed', costUsd: 0.5 },
      c: passed,
    });
    await h.loop(runner).run();
    expect(JSON.parse((await h.fs.readText(PATHS.metrics)) ?? '{}')).toEqual({ tokens: 12, cumulative_cost_usd: 0.75 });
  });
});
