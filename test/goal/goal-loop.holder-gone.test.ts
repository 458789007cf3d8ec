import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import { deadPid } from '../persist/dead-pid.js';
import { expectStop, harness, PATHS, passed, readEvents, START } from './helpers.js';

const allPass = () => createScriptedStageRunner({ a: passed, b: passed, c: passed });
const lock = (fields: object) =>
  JSON.stringify({ owner: 'goal-loop:4164:x', heartbeat_at: START - 8_000, timeout_ms: 600_000, ...fields });

describe('resuming after the loop holding the run was killed', () => {
  it('takes the lock over at once when its holder process is gone from this host, and logs why', async () => {
    const h = harness({ [PATHS.lock]: lock({ pid: await deadPid(), host: hostname() }) });
    expectStop(await h.loop(allPass()).run(), 'complete', 0);
    expect((await readEvents(h.fs))[0]).toMatchObject({
      type: 'lock_taken_over',
      previous_owner: 'goal-loop:4164:x',
      heartbeat_age_ms: 8_000,
      reason: 'holder_gone',
    });
  });

  it('a holder still alive, or on another host, keeps the run locked, and the error tells what a resume can do', async () => {
    const pid = await deadPid();
    for (const fields of [
      { pid: process.pid, host: hostname() },
      { pid, host: `${hostname()}-elsewhere` },
    ]) {
      const h = harness({ [PATHS.lock]: lock(fields) });
      await expect(h.loop(allPass()).run()).rejects.toMatchObject({
        code: 'RUN_LOCKED',
        message: expect.stringContaining('a resuming loop may pass a smaller lockTimeoutMs'),
      });
      expectStop(await h.loop(allPass(), { lockTimeoutMs: 5_000 }).run(), 'complete', 0);
      expect((await readEvents(h.fs))[0]).toMatchObject({ type: 'lock_taken_over', reason: 'heartbeat_stale' });
    }
  });
});
