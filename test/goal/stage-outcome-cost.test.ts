import { describe, expect, it } from 'vitest';
import type { StageOutcome } from '../../src/ports/stage-runner.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import { expectStop, harness, passed, readEvents } from './helpers.js';

// A runner's reported cost is spend the budget counts: one that is no amount fails its stage, naming the field.

describe('GoalLoop: a stage outcome whose costUsd is not a finite number ≥ 0', () => {
  it.each([
    [Number.POSITIVE_INFINITY, 'Infinity'],
    [Number.NaN, 'NaN'],
    [-1, '-1'],
    ['0.5', '"0.5"'],
  ])('costUsd %s fails the stage, naming costUsd and the value, and counts no spend', async (costUsd, shown) => {
    const h = harness();
    const reported = { status: 'passed', costUsd } as unknown as StageOutcome;
    const runner = createScriptedStageRunner({ a: [reported, passed], b: passed, c: passed });
    const result = await h.loop(runner, { budgetUsd: 10 }).run();
    // The stage is run again and the loop completes: the refused cost neither stopped it nor spent its budget.
    expectStop(result, 'complete', 0);
    expect(result.spentUsd).toBe(0);
    const first = (await readEvents(h.fs)).find((event) => event.type === 'stage_completed');
    expect(first).toMatchObject({
      stage: 'a',
      status: 'failed',
      cost_usd: 0,
      detail: `The stage runner for a returned an invalid outcome: costUsd must be a finite number ≥ 0 (got ${shown}).`,
    });
  });
});
