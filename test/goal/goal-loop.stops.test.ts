import { describe, expect, it } from 'vitest';
import { exitCodeFor } from '../../src/goal/core/exit-code.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import {
  abortsDuring,
  expectStop,
  failed,
  fileExists,
  goalJson,
  harness,
  judge,
  metricFile,
  PATHS,
  passed,
  readEvents,
  readState,
  runFile,
  typesOf,
  writes,
} from './helpers.js';

const allPass = () => createScriptedStageRunner({ a: passed, b: passed, c: passed });

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

describe('GoalLoop stops: the brakes', () => {
  it('stops at max_iterations while still making progress (exit 5)', async () => {
    const h = harness({ [runFile('goal.json')]: goalJson([metricFile('m', 'out/m.json', '>=', 100, ['a'])]) });
    const runner = createScriptedStageRunner({
      a: writes('out/m.json', (ctx) => ({ value: ctx.iteration })),
      b: passed,
      c: passed,
    });
    const result = await h.loop(runner, { maxIterations: 2 }).run();
    expectStop(result, 'max_iterations', 5);
    expect(result).toMatchObject({ iterations: 2, iteration: 2 });
    expect(runner.stageIds()).toEqual(['a', 'b', 'c', 'a']);
  });

  it('clamps maxIterations 50 to the hard cap of 20, and says so in the stop and the session record', async () => {
    const h = harness({ [runFile('goal.json')]: goalJson([metricFile('m', 'out/m.json', '>=', 1000, ['a'])]) });
    const runner = createScriptedStageRunner({
      a: writes('out/m.json', (ctx) => ({ value: ctx.iteration })),
      b: passed,
      c: passed,
    });
    const result = await h.loop(runner, { maxIterations: 50 }).run();
    expectStop(result, 'max_iterations', 5);
    expect(result.iterations).toBe(20);
    expect(result.reason).toContain('Reached 20 iteration(s)');
    const started = (await readEvents(h.fs)).filter((event) => event.type === 'loop_iteration_started');
    expect(started).toHaveLength(20);
    expect(new Set(started.map((event) => event.max_iterations))).toEqual(new Set([20]));
    expect((await readState(h.fs))?.session?.max_iterations).toBe(20);
    expect(result.reason).toContain('maxIterations 50 is clamped to the hard cap of 20');
    expect((await readState(h.fs))?.session?.max_iterations_requested).toBe(50);
  });

  it('stops no_progress when a retry leaves the fingerprint unchanged (exit 6)', async () => {
    const h = harness();
    const runner = createScriptedStageRunner({ a: passed, b: failed, c: passed });
    const result = await h.loop(runner).run();
    expectStop(result, 'no_progress', 6);
    expect(result.reason).toContain('same progress fingerprint');
    expect(result.iterations).toBe(2);
    expect(runner.stageIds()).toEqual(['a', 'b', 'c', 'b']);
  });

  it('stops no_progress when the goal is not met and nothing names a stage to rerun', async () => {
    const h = harness({ [runFile('goal.json')]: goalJson([fileExists('report', 'never/there.json')]) });
    const runner = allPass();
    const result = await h.loop(runner).run();
    expectStop(result, 'no_progress', 6);
    expect(result.reason).toContain('no stage is named to rerun');
    expect(result.iterations).toBe(1);
  });

  it('counts a metric moving 60 → 80 toward 90 as progress, then completes at 90', async () => {
    const h = harness({ [runFile('goal.json')]: goalJson([metricFile('coverage', 'out/cov.json', '>=', 90, ['b'])]) });
    const values = [60, 80, 90];
    const runner = createScriptedStageRunner({
      a: passed,
      b: writes('out/cov.json', (ctx) => ({ value: values[ctx.iteration - 1] })),
      c: passed,
    });
    const result = await h.loop(runner, { maxIterations: 3 }).run();
    expectStop(result, 'complete', 0);
    expect(result.iterations).toBe(3);
    const evaluated = (await readEvents(h.fs)).filter((event) => event.type === 'goal_evaluated');
    expect(evaluated.map((event) => event.type === 'goal_evaluated' && event.status)).toEqual([
      'RETRY',
      'RETRY',
      'PASS',
    ]);
    expect(runner.stageIds()).toEqual(['a', 'b', 'c', 'b', 'b']);
  });

  it('RETRY reruns exactly the named stages, never the whole pipeline', async () => {
    const h = harness({ [runFile('goal.json')]: goalJson([fileExists('notes', `${runFile('out/notes.md')}`, ['c'])]) });
    const runner = createScriptedStageRunner({
      a: passed,
      b: [failed, passed],
      c: [passed, writes('out/notes.md', () => 'notes')],
    });
    const result = await h.loop(runner).run();
    expectStop(result, 'complete', 0);
    expect(runner.calls.map((call) => [call.stageId, call.iteration, call.reason.kind])).toEqual([
      ['a', 1, 'initial'],
      ['b', 1, 'initial'],
      ['c', 1, 'initial'],
      ['b', 2, 'retry'],
      ['c', 2, 'retry'],
    ]);
    const retrying = (await readEvents(h.fs)).find((event) => event.type === 'loop_iteration_retrying_stages');
    expect(retrying).toMatchObject({ stages: ['b', 'c'], iteration: 1 });
  });
});

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

describe('GoalLoop stops: evaluation_error and aborted', () => {
  it('stops evaluation_error on an invalid goal.json before running any stage, naming the JSON path (exit 8)', async () => {
    const bad = goalJson([
      { id: 'm', kind: 'metric_threshold', source: 'feedback', metric: 'x', operator: '=~', value: 1 },
    ]);
    const h = harness({ [runFile('goal.json')]: bad });
    const runner = allPass();
    const result = await h.loop(runner).run();
    expectStop(result, 'evaluation_error', 8);
    expect(runner.calls).toHaveLength(0);
    expect(result.reason).toContain('$.criteria[0].operator');
    expect(result.evaluation).toMatchObject({
      status: 'ERROR',
      issues: [expect.objectContaining({ path: ['criteria', 0, 'operator'] })],
    });
    expect(result.iteration).toBe(0);
    const last = (await readEvents(h.fs)).at(-1);
    expect(last).toMatchObject({ type: 'loop_blocked', stopped_on: 'evaluation_error', goal_id: 'test-goal' });
  });

  it('aborts during a stage: the runner gets the signal, the lock is released, the session resumes without rerunning finished stages (exit 130)', async () => {
    const h = harness();
    const controller = new AbortController();
    const signals: AbortSignal[] = [];
    const first = createScriptedStageRunner({ a: passed, b: abortsDuring(controller, signals), c: passed });
    const result = await h.loop(first, { signal: controller.signal }).run();
    expectStop(result, 'aborted', 130);
    // The runner's signal follows the loop's (it also fires if the run's lock is lost), with the same reason.
    expect(signals).toHaveLength(1);
    expect(signals[0]?.aborted).toBe(true);
    expect(signals[0]?.reason).toBe(controller.signal.reason);
    expect(await h.fs.readText(PATHS.lock)).toBeNull();
    const state = await readState(h.fs);
    expect(state).toMatchObject({ phase: 'running_stages', stop: null, iteration: 1 });
    expect(state?.completed_stages.map((record) => record.stage)).toEqual(['a']);

    const second = allPass();
    const resumed = await h.loop(second).run();
    expectStop(resumed, 'complete', 0);
    expect(second.calls.map((call) => [call.stageId, call.iteration, call.reason.kind])).toEqual([
      ['b', 1, 'resume'],
      ['c', 1, 'resume'],
    ]);
    expect(resumed).toMatchObject({ iteration: 1, iterations: 1 });
    const events = await readEvents(h.fs);
    expect(events.find((event) => event.type === 'loop_resumed')).toMatchObject({
      phase: 'running_stages',
      pending_stages: ['b', 'c'],
    });
    expect(events.filter((event) => event.type === 'loop_iteration_started')).toHaveLength(1);
  });

  it('aborts before the first iteration when the signal has already fired', async () => {
    const h = harness();
    const runner = allPass();
    const result = await h.loop(runner, { signal: AbortSignal.abort() }).run();
    expectStop(result, 'aborted', 130);
    expect(runner.calls).toHaveLength(0);
    expect((await readState(h.fs))?.phase).toBe('idle');
  });

  it('maps every stop reason to its exit code, 0 only for complete and dry_run', () => {
    const codes = Object.fromEntries(
      (
        [
          'complete',
          'dry_run',
          'blocked',
          'ask_user',
          'max_iterations',
          'no_progress',
          'budget_exhausted',
          'evaluation_error',
          'aborted',
        ] as const
      ).map((stoppedOn) => [stoppedOn, exitCodeFor({ stoppedOn })]),
    );
    expect(codes).toEqual({
      complete: 0,
      dry_run: 0,
      blocked: 3,
      ask_user: 4,
      max_iterations: 5,
      no_progress: 6,
      budget_exhausted: 7,
      evaluation_error: 8,
      aborted: 130,
    });
  });
});
