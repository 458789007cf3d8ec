import { describe, expect, it } from 'vitest';
import { GoalLoopError } from '../../src/errors.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import {
  allPass,
  deferred,
  expectStop,
  failed,
  harness,
  JUDGE_GOAL,
  PATHS,
  passed,
  readEvents,
  readState,
  START,
} from './helpers.js';

const startedIterations = async (h: ReturnType<typeof harness>) =>
  (await readEvents(h.fs)).flatMap((event) => (event.type === 'loop_iteration_started' ? [event.iteration] : []));

describe('sessions and step()', () => {
  it('continues the run-wide iteration counter across sessions', async () => {
    const h = harness(JUDGE_GOAL);
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await h.loop(allPass()).run());
    expect(results.map((result) => [result.stoppedOn, result.iteration, result.iterations])).toEqual([
      ['ask_user', 1, 1],
      ['ask_user', 2, 1],
      ['ask_user', 3, 1],
    ]);
    expect(await startedIterations(h)).toEqual([1, 2, 3]);
    expect((await readState(h.fs))?.session).toMatchObject({ index: 3, started_at_iteration: 2, iterations: 1 });
  });

  it('step() runs exactly one iteration and says what the next one reruns', async () => {
    const h = harness();
    const runner = createScriptedStageRunner({ a: passed, b: [failed, passed], c: passed });
    const first = await h.loop(runner).step();
    expect(first).toMatchObject({ done: false, stoppedOn: null, iteration: 1, rerunStages: ['b'] });
    expect(runner.stageIds()).toEqual(['a', 'b', 'c']);
    expect(await startedIterations(h)).toEqual([1]);
    const second = await h.loop(runner).step();
    expect(second).toMatchObject({ done: true, stoppedOn: 'complete', iteration: 2, iterations: 2 });
    expect(runner.stageIds()).toEqual(['a', 'b', 'c', 'b']);
    expect(await h.fs.readText(PATHS.lock)).toBeNull();
  });
});

describe('the run lock', () => {
  it('a second loop on a locked run rejects with RUN_LOCKED', async () => {
    const h = harness();
    const entered = deferred();
    const release = deferred();
    const runner = createScriptedStageRunner({
      a: passed,
      b: async () => {
        entered.resolve();
        await release.promise;
        return passed;
      },
      c: passed,
    });
    const running = h.loop(runner).run();
    await entered.promise;
    const error = await h
      .loop(allPass())
      .run()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GoalLoopError);
    expect(error).toMatchObject({ code: 'RUN_LOCKED' });
    await expect(h.loop(allPass()).step()).rejects.toMatchObject({ code: 'RUN_LOCKED' });
    release.resolve();
    expectStop(await running, 'complete', 0);
    expect(await h.fs.readText(PATHS.lock)).toBeNull();
  });

  it('takes over a stale lock and logs lock_taken_over; a fresh one stays locked', async () => {
    const lock = (ageMs: number) =>
      JSON.stringify({ owner: 'ghost', pid: 1, heartbeat_at: START - ageMs, heartbeat_iso: '', timeout_ms: 600_000 });
    const fresh = harness({ [PATHS.lock]: lock(60_000) });
    await expect(fresh.loop(allPass()).run()).rejects.toMatchObject({ code: 'RUN_LOCKED' });
    const stale = harness({ [PATHS.lock]: lock(600_001) });
    expectStop(await stale.loop(allPass()).run(), 'complete', 0);
    const events = await readEvents(stale.fs);
    expect(events[0]).toMatchObject({ type: 'lock_taken_over', previous_owner: 'ghost', heartbeat_age_ms: 600_001 });
    expect(await stale.fs.readText(PATHS.lock)).toBeNull();
  });
});
