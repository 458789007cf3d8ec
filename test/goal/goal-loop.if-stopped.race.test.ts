import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isGoalLoopError } from '../../src/errors.js';
import { GoalLoop } from '../../src/goal/goal-loop.js';
import type { LoopStepResult } from '../../src/goal/loop-result.js';
import { readLoopStatus } from '../../src/goal/loop-status.js';
import type { LoopRunOptions } from '../../src/goal/run-options.js';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import { systemClock } from '../../src/ports/clock.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import {
  decisions,
  deferred,
  eventLines,
  failed,
  harness,
  passed,
  RUN,
  readEvents,
  retryOnce,
  STAGES,
} from './helpers.js';

// `ifStopped: 'return-stop'` under a race: a queue worker's duplicate delivery never records a second decision.

const RETURN_STOP: LoopRunOptions = { ifStopped: 'return-stop' };

// A queue worker given the run's job: steps until a decision, retrying RUN_LOCKED as the queue would. Two of them
// on one run are a job and its duplicate delivery; whichever steps after the decision must get it, not a new session.
async function worker(loop: GoalLoop): Promise<LoopStepResult> {
  for (;;) {
    try {
      const step = await loop.step(RETURN_STOP);
      if (step.done) return step;
    } catch (error) {
      if (!isGoalLoopError(error, 'RUN_LOCKED')) throw error;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

describe('two loops stepping the last iteration at once record one decision', () => {
  it('a duplicate that found the run going, then waited for the lock, gets the stop decided meanwhile', async () => {
    const h = harness();
    const gate = deferred();
    const entered = deferred();
    const runner = createScriptedStageRunner({
      a: passed,
      b: [
        failed,
        async () => {
          entered.resolve();
          await gate.promise;
          return passed;
        },
      ],
      c: passed,
    });
    await h.loop(runner).step();
    const holder = h.loop(runner).step(RETURN_STOP);
    await entered.promise;
    // The duplicate sees no stop outside the lock, and the holder has the lock.
    expect((await readLoopStatus({ fs: h.fs, runDir: RUN })).stop).toBeNull();
    const locked = await h
      .loop(runner)
      .step(RETURN_STOP)
      .catch((error: unknown) => error);
    expect(isGoalLoopError(locked, 'RUN_LOCKED')).toBe(true);
    gate.resolve();
    const decided = await holder;
    // The lock is free now; the duplicate's retry finds the stop under it.
    const duplicate = await h.loop(runner).step(RETURN_STOP);
    expect(duplicate).toEqual(decided);
    expect(await decisions(h.fs)).toEqual(['loop_completed']);
    expect(runner.stageIds()).toEqual(['a', 'b', 'c', 'b']);
  });

  const race = async (fs: FileSystem, loop: () => GoalLoop) => {
    const results = await Promise.all([worker(loop()), worker(loop())]);
    expect(results.map((result) => [result.stoppedOn, result.iteration])).toEqual([
      ['complete', 2],
      ['complete', 2],
    ]);
    expect(await decisions(fs)).toEqual(['loop_completed']);
    const started = (await readEvents(fs)).filter((event) => event.type === 'loop_iteration_started');
    expect(started.map((event) => event.iteration)).toEqual([1, 2]);
  };

  it('on the memory filesystem', async () => {
    const h = harness();
    const runner = retryOnce();
    await race(h.fs, () => h.loop(runner));
    expect(await eventLines(h.fs)).toHaveLength((await readEvents(h.fs)).length);
  });

  describe('on a real directory', () => {
    let base = '';
    beforeEach(async () => {
      base = await mkdtemp(join(tmpdir(), 'goal-loop-if-stopped-'));
      await mkdir(join(base, RUN), { recursive: true });
    });
    afterEach(() => rm(base, { recursive: true, force: true }));

    it('with the system clock', async () => {
      const fs = createNodeFileSystem(base);
      const runner = retryOnce();
      await race(fs, () => new GoalLoop({ fs, runDir: RUN, stages: [...STAGES], runner, clock: systemClock }));
    });
  });
});
