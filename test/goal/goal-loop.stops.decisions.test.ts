import { describe, expect, it } from 'vitest';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import {
  allPass,
  expectStop,
  goalJson,
  harness,
  judge,
  PATHS,
  passed,
  readEvents,
  readState,
  runFile,
  typesOf,
  writes,
} from './helpers.js';

describe('GoalLoop stops: complete, ask_user, blocked', () => {
  it('completes when every stage passes and no criterion is left (exit 0)', async () => {
    const h = harness();
    const runner = allPass();
    const result = await h.loop(runner).run();
    expectStop(result, 'complete', 0);
    expect(result).toMatchObject({ iterations: 1, iteration: 1, spentUsd: 0 });
    expect(result.evaluation?.status).toBe('PASS');
    expect(runner.stageIds()).toEqual(['a', 'b', 'c']);
    expect(typesOf(await readEvents(h.fs)).at(-1)).toBe('loop_completed');
    expect((await readState(h.fs))?.stop).toMatchObject({ stopped_on: 'complete', iteration: 1 });
    expect(await h.fs.readText(PATHS.lock)).toBeNull();
  });

  it('records decimal stage costs as their decimal total (0.1 + 0.2 is 0.3, not 0.30000000000000004)', async () => {
    const h = harness();
    const runner = createScriptedStageRunner({
      a: { status: 'passed', costUsd: 0.1 },
      b: { status: 'passed', costUsd: 0.2 },
      c: { status: 'passed', costUsd: 0 },
    });
    const result = await h.loop(runner).run();
    expect(result.spentUsd).toBe(0.3);
    expect(JSON.parse((await h.fs.readText(PATHS.metrics)) ?? '{}')).toMatchObject({ cumulative_cost_usd: 0.3 });
    expect((await readState(h.fs))?.spent_usd).toBe(0.3);
  });

  it('records costs of a few billionths of a dollar in metrics.json as in the state, never rounded away', async () => {
    const h = harness();
    const tiny = { status: 'passed', costUsd: 2e-9 } as const;
    const result = await h.loop(createScriptedStageRunner({ a: tiny, b: tiny, c: passed })).run();
    expect(result.spentUsd).toBe(4e-9);
    expect(JSON.parse((await h.fs.readText(PATHS.metrics)) ?? '{}')).toMatchObject({ cumulative_cost_usd: 4e-9 });
  });

  it('asks the user when a judge criterion has no verdict (exit 4)', async () => {
    const h = harness({ [runFile('goal.json')]: goalJson([judge('design', ['b'])]) });
    const result = await h.loop(allPass()).run();
    expectStop(result, 'ask_user', 4);
    expect(result.evaluation?.criteria[0]).toMatchObject({ id: 'design', status: 'PENDING' });
    expect(result.reason).toContain('"iteration": 2');
  });

  it.each(['needs_context', 'awaiting_approval'] as const)('asks the user when a stage reports %s', async (status) => {
    const h = harness();
    const runner = createScriptedStageRunner({ a: passed, b: { status }, c: passed });
    const result = await h.loop(runner).run();
    expectStop(result, 'ask_user', 4);
    expect(result.iterations).toBe(1);
    expect(runner.stageIds()).toEqual(['a', 'b', 'c']);
  });

  it('blocks on a blocked stage (exit 3)', async () => {
    const h = harness();
    const result = await h
      .loop(createScriptedStageRunner({ a: passed, b: { status: 'blocked', detail: 'no access' }, c: passed }))
      .run();
    expectStop(result, 'blocked', 3);
    expect(result.reason).toContain('Stage b is blocked');
  });

  it('blocks on an explicit FAIL verdict recommending block', async () => {
    const h = harness({
      [runFile('goal.json')]: goalJson([judge('design', ['b'])]),
      [runFile('goal-verdict.json')]: JSON.stringify({
        criterion_id: 'design',
        verdict: 'FAIL',
        iteration: 1,
        recommendation: 'block',
      }),
    });
    const result = await h.loop(allPass()).run();
    expectStop(result, 'blocked', 3);
    expect(result.evaluation?.criteria[0]).toMatchObject({
      status: 'FAIL',
      verdictSource: 'explicit',
      recommendation: 'block',
    });
  });

  it('blocks on a critical feedback issue nobody can remediate', async () => {
    const h = harness();
    const report = {
      summary: { critical_count: 1 },
      issues: [{ id: 'C1', severity: 'CRITICAL', remediation: { action: 'think harder' } }],
    };
    const runner = createScriptedStageRunner({
      a: passed,
      b: passed,
      c: writes('artifacts/stages/11-feedback-loop/feedback.json', () => report),
    });
    const result = await h.loop(runner).run();
    expectStop(result, 'blocked', 3);
    expect(result.evaluation?.criticalCount).toBe(1);
    expect(result.reason).toContain('C1 has no remediation path');
  });
});
