import { describe, expect, it } from 'vitest';
import { GoalLoop } from '../../src/goal/goal-loop.js';
import { readLoopStatus } from '../../src/goal/loop-status.js';
import type { StageRunner } from '../../src/goal/stage-runner.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import type { StageOutcome } from '../../src/ports/stage-runner.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import { crashing, failing } from '../runtime/helpers.js';
import { deferred, type Harness, harness, PATHS, passed, RUN, readEvents, readState, START } from './helpers.js';
import { abortedWithLateCost, LATE_FOLDER, lateFiles, until } from './late-cost-helpers.js';

// Folding a late cost is crash-safe (counted by the commit that names its file, removed only after), and a loop
// that lost its lock writes nothing of the run but its pending file.

const LOCK_TIMEOUT_MS = 600_000;

const loopOn = (h: Harness, fs: FileSystem, runner: StageRunner) =>
  new GoalLoop({ fs, runDir: RUN, stages: ['a', 'b', 'c'], runner, clock: h.clock });

// Resumes on the intact filesystem (past the crashed loop's lock) until a stop other than an abort.
async function resumeToTheEnd(h: Harness, runner: StageRunner) {
  h.clock.advance(LOCK_TIMEOUT_MS + 1);
  let result = await loopOn(h, h.fs, runner).run();
  for (let attempt = 0; attempt < 3 && result.stoppedOn === 'aborted'; attempt++)
    result = await loopOn(h, h.fs, runner).run();
  return result;
}

// What must hold however the fold was cut: the late $2 counted once, on top of the stage costs the log records.
async function expectCountedOnce(h: Harness, spentUsd: number): Promise<void> {
  const events = await readEvents(h.fs);
  expect(events.filter((event) => event.type === 'late_cost_recorded')).toHaveLength(1);
  const stageCosts = events.reduce((sum, event) => sum + (event.type === 'stage_completed' ? event.cost_usd : 0), 0);
  expect(spentUsd).toBe(2 + stageCosts);
  expect(JSON.parse((await h.fs.readText(PATHS.metrics)) ?? '{}').cumulative_cost_usd).toBe(spentUsd);
  expect(await lateFiles(h.fs)).toEqual([]);
  expect((await readState(h.fs))?.late_costs).toBeUndefined();
  expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index));
}

describe('a crash while folding a late cost', () => {
  it('between the commit and the removal of the file: counted once, the file removed on resume', async () => {
    const { h, runner } = await abortedWithLateCost();
    const cut = failing(h.fs, (method, args) => method === 'remove' && String(args[0]).startsWith(`${LATE_FOLDER}/`));
    await expect(loopOn(h, cut, runner).run()).rejects.toThrow('crash at remove');
    const state = await readState(h.fs);
    expect(state?.spent_usd).toBe(2);
    expect(state?.late_costs?.folded).toEqual(await lateFiles(h.fs));

    const result = await resumeToTheEnd(h, runner);
    expect(result).toMatchObject({ stoppedOn: 'complete', spentUsd: 4 });
    await expectCountedOnce(h, 4);
  });

  it('readLoopStatus: a file the record names as folded, still present, is not pending; one it does not name is', async () => {
    const { h, runner } = await abortedWithLateCost();
    const cut = failing(h.fs, (method, args) => method === 'remove' && String(args[0]).startsWith(`${LATE_FOLDER}/`));
    await expect(loopOn(h, cut, runner).run()).rejects.toThrow('crash at remove');
    const folded = (await readState(h.fs))?.late_costs?.folded;
    expect(folded).toHaveLength(1);
    expect(await lateFiles(h.fs)).toEqual(folded);
    expect(await readLoopStatus({ fs: h.fs, runDir: RUN })).toMatchObject({ spentUsd: 2, pendingLateCostUsd: 0 });

    await h.fs.writeText(
      `${LATE_FOLDER}/1-a-elsewhere.json`,
      JSON.stringify({ stage: 'a', iteration: 1, cost_usd: 1.5, settled_at: 'x' }),
    );
    expect(await readLoopStatus({ fs: h.fs, runDir: RUN })).toMatchObject({ spentUsd: 2, pendingLateCostUsd: 1.5 });
  });

  it('at every write of the resuming session: the late cost is counted exactly once', async () => {
    const { h, runner } = await abortedWithLateCost();
    const counter = crashing(h.fs);
    await loopOn(h, counter, runner).run();
    const writes = counter.writes();
    expect(writes).toBeGreaterThan(10);
    for (let k = 1; k <= writes; k++) {
      const run = await abortedWithLateCost();
      const crash = await loopOn(run.h, crashing(run.h.fs, k), run.runner)
        .run()
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(crash, `write ${k}`).toMatchObject({ code: 'IO_ERROR' });
      const result = await resumeToTheEnd(run.h, run.runner);
      expect(result.stoppedOn, `write ${k}`).toBe('complete');
      await expectCountedOnce(run.h, result.spentUsd);
    }
  });
});

describe('a loop that lost its lock while its stage ran', () => {
  it('writes only its pending file, never the run state; the new holder counts the cost', async () => {
    const fs = createMemoryFileSystem();
    const timeoutMs = 9_000;
    const clock = createManualClock(START);
    const holderEntered = deferred();
    const holderLate = deferred<StageOutcome>();
    const holderWrites: string[] = [];
    let recording = false;
    const holderFs = failing(fs, (method, args) => {
      if (recording && !['readText', 'readBytes', 'stat', 'realpath', 'list'].includes(method))
        holderWrites.push(`${method} ${String(args[0])}`);
      return false;
    });
    const holder = new GoalLoop({
      fs: holderFs,
      runDir: RUN,
      stages: ['a', 'b'],
      clock,
      lockTimeoutMs: timeoutMs,
      // Stage a ignores its signal (a scripted runner would not) and reports $2 only when the test lets it.
      runner: {
        run: (stage) => {
          if (stage !== 'a') return Promise.resolve(passed);
          holderEntered.resolve();
          return holderLate.promise;
        },
      },
    });
    const holderRun = holder.run().then(
      () => 'resolved',
      (error: { code?: string }) => error.code,
    );
    await holderEntered.promise;

    // Another loop takes the stale run over; its stage a waits for the test.
    const takerIn = deferred();
    const takerGo = deferred();
    const taker = new GoalLoop({
      fs,
      runDir: RUN,
      stages: ['a', 'b'],
      clock: createManualClock(START + timeoutMs + 1),
      lockTimeoutMs: timeoutMs,
      runner: createScriptedStageRunner({
        a: async () => {
          takerIn.resolve();
          await takerGo.promise;
          return { status: 'passed', costUsd: 1 };
        },
        b: passed,
      }),
    });
    const takerRun = taker.run();
    await takerIn.promise;

    // The holder's heartbeat finds the lock gone: its run ends RUN_LOCKED, its runner still running.
    clock.advance(timeoutMs);
    expect(await holderRun).toBe('RUN_LOCKED');
    const files = [PATHS.state, PATHS.events, PATHS.metrics];
    const before = await Promise.all(files.map((path) => fs.readText(path)));
    recording = true;
    holderLate.resolve({ status: 'passed', costUsd: 2 });
    await until(async () => (await lateFiles(fs)).length === 1, "the lost holder's pending file");
    expect(holderWrites).toEqual([`writeText ${LATE_FOLDER}/${(await lateFiles(fs))[0]}`]);
    expect(await Promise.all(files.map((path) => fs.readText(path)))).toEqual(before);

    takerGo.resolve();
    const result = await takerRun;
    expect(result).toMatchObject({ stoppedOn: 'complete', spentUsd: 3 });
    const late = (await readEvents(fs)).filter((event) => event.type === 'late_cost_recorded');
    expect(late).toEqual([expect.objectContaining({ stage: 'a', cost_usd: 2, stage_iteration: 1 })]);
    expect(holderWrites).toHaveLength(1);
  });

  it('a loop whose lock was taken over before it folds writes nothing: the pending file waits for the new holder', async () => {
    const h = harness();
    const inA = deferred();
    const releaseA = deferred();
    const runner = createScriptedStageRunner({
      a: async () => {
        inA.resolve();
        await releaseA.promise;
        return { status: 'passed', costUsd: 1 };
      },
      b: passed,
      c: passed,
    });
    const running = loopOn(h, h.fs, runner).run();
    await inA.promise;
    const pending = `${LATE_FOLDER}/1-a-elsewhere.json`;
    await h.fs.writeText(pending, JSON.stringify({ stage: 'a', iteration: 1, cost_usd: 2, settled_at: 'x' }));
    // Another loop's takeover, as its lock file shows it (the holder's heartbeat has not noticed yet).
    const lock = JSON.parse((await h.fs.readText(`${RUN}/loop.lock`)) ?? '{}');
    await h.fs.writeText(`${RUN}/loop.lock`, JSON.stringify({ ...lock, owner: 'other', token: 'other-token' }));
    const files = [PATHS.state, PATHS.events, PATHS.metrics];
    const before = await Promise.all(files.map((path) => h.fs.readText(path)));
    releaseA.resolve();
    await expect(running).rejects.toMatchObject({ code: 'RUN_LOCKED' });
    expect(await Promise.all(files.map((path) => h.fs.readText(path)))).toEqual(before);
    expect(await h.fs.readText(pending)).not.toBeNull();
  });
});
