import { describe, expect, it } from 'vitest';
import { readLoopStatus } from '../../src/goal/loop-status.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import type { ProcessProbe } from '../../src/ports/process-probe.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import { refusedPaths } from '../kit/option-refusal.js';
import { expectStop, harness, PATHS, passed, RUN, START } from './helpers.js';

// A probe that judges this process gone once `killed` says so: the loop runs in this process, so "killed" is what a
// status reader on this host sees after a `kill -9` of the loop.
function switchableProbe(): { probe: ProcessProbe; kill: () => void } {
  let killed = false;
  return {
    probe: { host: 'build-7', isGone: (pid) => killed && pid === process.pid },
    kill: () => {
      killed = true;
    },
  };
}

describe('readLoopStatus: the run lock', () => {
  it('a running loop reads alive; the same loop killed reads gone; reading changes nothing and the loop goes on', async () => {
    const h = harness();
    const { probe, kill } = switchableProbe();
    const fs: FileSystem = { ...h.fs, processes: probe };
    let entered!: () => void;
    const inStage = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let finish!: () => void;
    const held = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const runner = createScriptedStageRunner({
      a: async () => {
        entered();
        await held;
        return passed;
      },
      b: passed,
      c: passed,
    });
    const running = h.loop(runner, { fs }).run();
    await inStage;
    h.clock.advance(2_500);
    const lockText = await h.fs.readText(PATHS.lock);
    const alive = await readLoopStatus({ fs, runDir: RUN, clock: h.clock });
    expect(alive).toMatchObject({ phase: 'running_stages', currentStage: 'a', stop: null, paused: null, issues: [] });
    expect(alive.stageStatus.a).toBe('pending');
    expect(alive.lock).toEqual({
      owner: expect.stringMatching(/^goal-loop:/),
      pid: process.pid,
      host: 'build-7',
      heartbeatAgeMs: 2_500,
      timeoutMs: 600_000,
      holder: 'alive',
    });
    kill();
    const crashed = await readLoopStatus({ fs, runDir: RUN, clock: h.clock });
    expect(crashed).toMatchObject({ phase: 'running_stages', stop: null, paused: null, lock: { holder: 'gone' } });
    // Without a probe the status cannot tell: the heartbeat age against the timeout is all there is.
    expect((await readLoopStatus({ fs: h.fs, runDir: RUN, clock: h.clock })).lock?.holder).toBe('unknown');
    expect(await h.fs.readText(PATHS.lock)).toBe(lockText);
    finish();
    expectStop(await running, 'complete', 0);
    expect(await readLoopStatus({ fs, runDir: RUN, clock: h.clock })).toMatchObject({ lock: null, currentStage: null });
  });

  it('a lock file that is not a lock record is listed in issues, never thrown', async () => {
    const h = harness({ [PATHS.lock]: 'not a lock' });
    h.clock.advance(4_000);
    const status = await readLoopStatus({ fs: h.fs, runDir: RUN, clock: h.clock });
    expect(status.lock).toMatchObject({
      owner: 'unknown (unreadable lock file)',
      holder: 'unknown',
      timeoutMs: 600_000,
    });
    expect(Number.isInteger(status.lock?.heartbeatAgeMs)).toBe(true);
    expect(status.lock?.heartbeatAgeMs).toBeGreaterThanOrEqual(0);
    const forLoop = await readLoopStatus({ fs: h.fs, runDir: RUN, clock: h.clock, lockTimeoutMs: 10_000 });
    expect(forLoop.lock?.timeoutMs).toBe(10_000);
    expect(status.issues).toEqual([
      { code: 'invalid_lock', path: [], message: expect.stringContaining('loop.lock is not a lock record') },
    ]);
    expect(await h.fs.readText(PATHS.lock)).toBe('not a lock');
  });

  it('a directory at loop.lock: run() refuses it naming it and saying to remove it; the status lists the same', async () => {
    const h = harness();
    await h.fs.mkdir(PATHS.lock);
    const runner = createScriptedStageRunner({ a: passed, b: passed, c: passed });
    const removeIt =
      'is a directory, not a lock file. goal-loop only ever writes a regular file there and never replaces';
    await expect(h.loop(runner).run()).rejects.toMatchObject({
      code: 'IO_ERROR',
      message: expect.stringContaining(`${PATHS.lock} ${removeIt}`),
    });
    const status = await readLoopStatus({ fs: h.fs, runDir: RUN, clock: h.clock });
    expect(status.issues).toEqual([
      { code: 'unreadable', path: [], message: expect.stringContaining(`loop.lock ${removeIt}`) },
    ]);
    await h.fs.remove(PATHS.lock);
    expectStop(await h.loop(runner).run(), 'complete', 0);
  });

  it("judges the lock as the loop that would resume it: by the smaller of its lockTimeoutMs (default 10 minutes) and the holder's", async () => {
    const h = harness();
    const record = { owner: 'o', heartbeat_at: START, timeout_ms: 3_600_000 };
    await h.fs.writeText(PATHS.lock, JSON.stringify(record));
    const read = async (options: { lockTimeoutMs?: number }) =>
      (await readLoopStatus({ fs: h.fs, runDir: RUN, clock: h.clock, ...options })).lock?.timeoutMs;
    expect(await read({})).toBe(600_000);
    expect(await read({ lockTimeoutMs: 5_000 })).toBe(5_000);
    expect(await read({ lockTimeoutMs: 7_200_000 })).toBe(3_600_000);
    expect(await refusedPaths(() => readLoopStatus({ fs: h.fs, runDir: RUN, lockTimeoutMs: 0 }))).toEqual([
      ['lockTimeoutMs'],
    ]);
  });

  it('refuses a clock without now() at $.clock; without one, the system clock dates the heartbeat', async () => {
    const h = harness();
    expect(await refusedPaths(() => readLoopStatus({ fs: h.fs, runDir: RUN, clock: {} } as never))).toEqual([
      ['clock'],
    ]);
    await h.fs.writeText(PATHS.lock, JSON.stringify({ owner: 'o', heartbeat_at: START, timeout_ms: 1 }));
    const status = await readLoopStatus({ fs: h.fs, runDir: RUN });
    expect(status.lock?.heartbeatAgeMs).toBeGreaterThanOrEqual(Date.now() - START - 60_000);
  });
});
