import { describe, expect, it } from 'vitest';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import {
  allPass,
  expectStop,
  failed,
  fileExists,
  goalJson,
  harness,
  metricFile,
  passed,
  readEvents,
  readState,
  runFile,
  writes,
} from './helpers.js';

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
