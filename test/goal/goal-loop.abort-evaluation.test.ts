import { describe, expect, it } from 'vitest';
import { iterationEvaluationPath } from '../../src/goal/loop-events.js';
import { createFakeCommandRunner } from '../../src/testing/fake-command-runner.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import {
  command,
  expectStop,
  goalJson,
  harness,
  PATHS,
  RUN,
  readEvents,
  readState,
  runFile,
  typesOf,
} from './helpers.js';

// An abort that fires while the evaluation runs (here: while a command criterion runs) is an abort like one during a
// stage: the loop stops `aborted`, records neither that evaluation nor a decision on it, and a later run() resumes the
// iteration at its evaluation without counting it twice.

const GOAL = goalJson([command('tests', 'npm test', ['b'])]);
const costly = () =>
  createScriptedStageRunner({ a: { status: 'passed', costUsd: 1 }, b: { status: 'passed' }, c: { status: 'passed' } });

// A command runner whose command fires the loop's signal while it runs (and then waits for the kill).
function abortingCommands(controller: AbortController) {
  return createFakeCommandRunner({
    'npm test': () => {
      controller.abort(new Error('stop'));
      return new Promise(() => undefined);
    },
  });
}

describe('an abort during the evaluation', () => {
  it.each([1, 3])(
    'with maxIterations %i: stops aborted (exit 130), records no evaluation, resets nothing, and stays resumable',
    async (maxIterations) => {
      const h = harness({ [runFile('goal.json')]: GOAL });
      const controller = new AbortController();
      const runner = costly();
      const loop = h.loop(runner, { signal: controller.signal, commands: abortingCommands(controller), maxIterations });
      const result = await loop.run();

      expectStop(result, 'aborted', 130);
      expect(result.reason).toBe('Aborted by the caller during the evaluation.');
      expect(result).toMatchObject({ iteration: 1, iterations: 1, evaluation: null, spentUsd: 1 });
      expect(await h.fs.readText(PATHS.lock)).toBeNull();
      const state = await readState(h.fs);
      expect(state).toMatchObject({ phase: 'evaluating', stop: null, iteration: 1, last_evaluation: null });
      expect(state?.session?.iterations).toBe(1);
      expect(state?.stage_status).toEqual({ a: 'passed', b: 'passed', c: 'passed' });
      expect(await h.fs.readText(iterationEvaluationPath(RUN, 1))).toBeNull();
      const events = await readEvents(h.fs);
      expect(
        typesOf(events).filter((type) => type === 'goal_evaluated' || type.startsWith('loop_iteration_r')),
      ).toEqual([]);
      expect(events.at(-1)).toMatchObject({ type: 'loop_blocked', stopped_on: 'aborted', iteration: 1 });

      // The next run resumes the iteration at its evaluation: no stage runs again, the iteration counts once.
      const again = createScriptedStageRunner({});
      const passing = createFakeCommandRunner({ 'npm test': { exitCode: 0 } });
      const resumed = await h.loop(again, { commands: passing, maxIterations }).run();
      expectStop(resumed, 'complete', 0);
      expect(resumed).toMatchObject({ iteration: 1, iterations: 1, spentUsd: 1 });
      expect(again.calls).toEqual([]);
      const after = await readEvents(h.fs);
      expect(after.find((event) => event.type === 'loop_resumed')).toMatchObject({ phase: 'evaluating', iteration: 1 });
      expect(after.filter((event) => event.type === 'loop_iteration_started')).toHaveLength(1);
      expect(after.filter((event) => event.type === 'goal_evaluated')).toEqual([
        expect.objectContaining({ status: 'PASS', iteration: 1 }),
      ]);
      expect(JSON.parse((await h.fs.readText(iterationEvaluationPath(RUN, 1))) ?? 'null')).toMatchObject({
        status: 'PASS',
        iteration: 1,
      });
    },
  );

  it('an abort during the evaluation of a later iteration keeps the earlier evaluation as the last one', async () => {
    const h = harness({ [runFile('goal.json')]: GOAL });
    const controller = new AbortController();
    let calls = 0;
    // The first run of the command fails (a RETRY of b), the second one is aborted.
    const commands = createFakeCommandRunner({
      'npm test': () => {
        calls += 1;
        if (calls === 1) return { exitCode: 1 };
        controller.abort(new Error('stop'));
        return new Promise(() => undefined);
      },
    });
    const result = await h.loop(costly(), { signal: controller.signal, commands }).run();
    expectStop(result, 'aborted', 130);
    expect(result).toMatchObject({ iteration: 2, iterations: 2 });
    expect(result.evaluation).toMatchObject({ status: 'RETRY', iteration: 1 });
    const state = await readState(h.fs);
    expect(state).toMatchObject({ phase: 'evaluating', iteration: 2, stop: null });
    expect(state?.last_evaluation?.status).toBe('RETRY');
    expect(await h.fs.readText(iterationEvaluationPath(RUN, 2))).toBeNull();
    const evaluated = (await readEvents(h.fs)).filter((event) => event.type === 'goal_evaluated');
    expect(evaluated.map((event) => event.iteration)).toEqual([1]);
  });
});
