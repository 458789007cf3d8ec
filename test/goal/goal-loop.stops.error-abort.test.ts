import { describe, expect, it } from 'vitest';
import { exitCodeFor } from '../../src/goal/core/exit-code.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import {
  abortsDuring,
  allPass,
  expectStop,
  goalJson,
  harness,
  PATHS,
  passed,
  readEvents,
  readState,
  runFile,
} from './helpers.js';

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
