import { describe, expect, it } from 'vitest';
import { isGoalLoopError } from '../../src/errors.js';
import type { LoopRunOptions } from '../../src/goal/run-options.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import { decisions, harness, JUDGE_GOAL, PATHS, passed, readEvents, readState, retryOnce, typesOf } from './helpers.js';

// `ifStopped: 'return-stop'`: on a run whose last session stopped, run() and step() return the recorded stop,
// decided under the lock, and write nothing; the run options are checked before the lock is taken.

const RETURN_STOP: LoopRunOptions = { ifStopped: 'return-stop' };
const runFiles = async (fs: FileSystem) => ({
  events: await fs.readText(PATHS.events),
  state: await fs.readText(PATHS.state),
});

describe("ifStopped: 'return-stop' on a stopped run", () => {
  it.each(['step', 'run'] as const)('%s() returns the recorded stop and writes nothing', async (method) => {
    const h = harness();
    const runner = retryOnce();
    await h.loop(runner).step();
    const decided = await h.loop(runner).step();
    expect(decided).toMatchObject({ done: true, stoppedOn: 'complete', iteration: 2 });
    const before = await runFiles(h.fs);
    const snapshot = h.fs.snapshot();
    const seen = h.seen.length;

    const again = method === 'step' ? await h.loop(runner).step(RETURN_STOP) : await h.loop(runner).run(RETURN_STOP);

    // The result the stopping step returned, evaluation included (read back from iterations/2/evaluation.json).
    const { done: _done, ...plain } = decided;
    expect(again).toEqual(method === 'step' ? decided : plain);
    expect(again.evaluation).toMatchObject({ status: 'PASS', iteration: 2 });
    expect(await runFiles(h.fs)).toEqual(before);
    expect(h.fs.snapshot()).toEqual(snapshot);
    expect(h.seen).toHaveLength(seen);
    expect(runner.stageIds()).toEqual(['a', 'b', 'c', 'b']);
  });

  it('returns an ask_user stop as recorded, where the default opens a new session', async () => {
    const h = harness(JUDGE_GOAL);
    const first = await h.loop(createScriptedStageRunner({ a: passed, b: passed, c: passed })).step();
    expect(first).toMatchObject({ done: true, stoppedOn: 'ask_user', iteration: 1, iterations: 1 });
    const before = await runFiles(h.fs);

    const recorded = await h.loop(createScriptedStageRunner({})).step(RETURN_STOP);
    expect(recorded).toEqual(first);
    expect(await runFiles(h.fs)).toEqual(before);

    // The default (named or not) keeps opening a new session after a stop: the human re-running after an answer.
    const named = await h.loop(createScriptedStageRunner({ b: passed })).step({ ifStopped: 'new-session' });
    expect(named).toMatchObject({ done: true, stoppedOn: 'ask_user', iteration: 2, iterations: 1 });
    const unnamed = await h.loop(createScriptedStageRunner({ b: passed })).step();
    expect(unnamed).toMatchObject({ done: true, stoppedOn: 'ask_user', iteration: 3, iterations: 1 });
    expect(await decisions(h.fs)).toEqual(['loop_blocked', 'loop_blocked', 'loop_blocked']);
    expect((await readState(h.fs))?.session).toMatchObject({ index: 3, started_at_iteration: 2 });
  });

  it('starts a fresh run and resumes an unfinished session like the default', async () => {
    const h = harness();
    const runner = retryOnce();
    expect(await h.loop(runner).step(RETURN_STOP)).toMatchObject({ done: false, iteration: 1, rerunStages: ['b'] });
    expect(await h.loop(runner).step(RETURN_STOP)).toMatchObject({ done: true, stoppedOn: 'complete', iteration: 2 });
    expect(await decisions(h.fs)).toEqual(['loop_completed']);
  });

  it('still logs a stale lock it took over (the takeover is always logged), and records no decision', async () => {
    const h = harness();
    const runner = retryOnce();
    await h.loop(runner).run();
    const { state } = await runFiles(h.fs);
    // A worker that died holding the lock after the decision: its lock is stale once its timeout passed.
    await h.fs.writeText(
      PATHS.lock,
      `${JSON.stringify({ owner: 'dead-worker', token: 't', pid: null, heartbeat_at: h.clock.now(), heartbeat_iso: '', timeout_ms: 1_000 })}\n`,
    );
    h.clock.advance(5_000);
    const result = await h.loop(runner, { lockTimeoutMs: 1_000 }).step(RETURN_STOP);
    expect(result).toMatchObject({ done: true, stoppedOn: 'complete', iteration: 2 });
    expect(typesOf(await readEvents(h.fs)).at(-1)).toBe('lock_taken_over');
    expect(await decisions(h.fs)).toEqual(['loop_completed']);
    expect((await readState(h.fs))?.stop).toEqual(JSON.parse(state ?? 'null').stop);
  });
});

describe('the run options are checked', () => {
  it.each([
    [{ ifStopped: 'continue' }, ['ifStopped'], 'ifStopped must be "new-session" or "return-stop" (got "continue")'],
    [{ session: 'continue' }, ['session'], 'unknown option `session`'],
    [{ ifstopped: 'return-stop' }, ['ifstopped'], 'unknown option `ifstopped`; did you mean `ifStopped`?'],
    ['return-stop', [], 'the options must be an object'],
  ])('%j is INVALID_OPTIONS naming the option, and takes no lock', async (options, path, message) => {
    const h = harness();
    const loop = h.loop(retryOnce());
    for (const call of [() => loop.step(options as LoopRunOptions), () => loop.run(options as LoopRunOptions)]) {
      const error = await call().catch((caught: unknown) => caught);
      expect(isGoalLoopError(error, 'INVALID_OPTIONS')).toBe(true);
      expect((error as Error).message).toContain(message);
      expect((error as Error).message).toMatch(/GoalLoop\.(step|run)\(\) options/);
      expect((error as { issues: { path: unknown }[] }).issues[0]?.path).toEqual(path);
    }
    expect(h.fs.snapshot()).toEqual({});
  });
});
