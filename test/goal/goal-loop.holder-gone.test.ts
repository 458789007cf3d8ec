import { describe, expect, it } from 'vitest';
import { createNodeProcessProbe } from '../../src/node/process-probe.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import { deadPid } from '../runtime/dead-pid.js';
import { allPass, expectStop, harness, PATHS, readEvents, START } from './helpers.js';

const lock = (fields: object) =>
  JSON.stringify({ owner: 'goal-loop:4164:x', heartbeat_at: START - 8_000, timeout_ms: 600_000, ...fields });
// This machine's processes, as the Node filesystem has them.
const processes = createNodeProcessProbe();
// The harness's memory filesystem (same files) seeing this machine's processes.
const seeing = (fs: FileSystem): FileSystem => ({ ...fs, processes });

describe('resuming after the loop holding the run was killed', () => {
  it('takes the lock over at once when its holder process is gone from this host, and logs why', async () => {
    const h = harness({ [PATHS.lock]: lock({ pid: await deadPid(), host: processes.host }) });
    expectStop(await h.loop(allPass(), { fs: seeing(h.fs) }).run(), 'complete', 0);
    expect((await readEvents(h.fs))[0]).toMatchObject({
      type: 'lock_taken_over',
      previous_owner: 'goal-loop:4164:x',
      heartbeat_age_ms: 8_000,
      reason: 'holder_gone',
    });
  });

  it('a holder still alive, on another host, or seen by a filesystem without processes, keeps the run locked, and the error tells what a resume can do', async () => {
    const pid = await deadPid();
    for (const [fields, fs] of [
      [{ pid: process.pid, host: processes.host }, seeing],
      [{ pid, host: `${processes.host}-elsewhere` }, seeing],
      [{ pid, host: processes.host }, (same: FileSystem) => same],
    ] as const) {
      const h = harness({ [PATHS.lock]: lock(fields) });
      await expect(h.loop(allPass(), { fs: fs(h.fs) }).run(), JSON.stringify(fields)).rejects.toMatchObject({
        code: 'RUN_LOCKED',
        message: expect.stringContaining('a resuming loop may pass a smaller lockTimeoutMs'),
      });
      expectStop(await h.loop(allPass(), { fs: fs(h.fs), lockTimeoutMs: 5_000 }).run(), 'complete', 0);
      expect((await readEvents(h.fs))[0]).toMatchObject({ type: 'lock_taken_over', reason: 'heartbeat_stale' });
    }
  });
});
