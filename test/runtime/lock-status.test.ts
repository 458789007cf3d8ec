import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileSystem } from '../../src/ports/file-system.js';
import type { ProcessProbe } from '../../src/ports/process-probe.js';
import { holderState } from '../../src/runtime/lock-holder.js';
import { readLockStatus } from '../../src/runtime/lock-status.js';
import { RunLock } from '../../src/runtime/run-lock.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { FILE_SYSTEMS, failing, type TestFs } from './helpers.js';
import { GONE, HOST, LOCK, probe, record, START, TIMEOUT } from './lock-fixtures.js';

const WRITES = ['writeText', 'appendText', 'truncate', 'createExclusive', 'remove', 'rename', 'mkdir'] as const;

// The filesystem with `processes` (null: none), refusing every write: reading a lock's status must never take, refresh
// or remove it.
function readOnly(fs: FileSystem, processes: ProcessProbe | null): FileSystem {
  const refuse = (name: string) => async () => {
    throw new Error(`status wrote: ${name}`);
  };
  const writes = Object.fromEntries(WRITES.map((name) => [name, refuse(name)]));
  return { ...fs, ...writes, processes: processes ?? undefined } as FileSystem;
}

describe('holderState: what the probe tells of a lock holder, as lock takeover asks it', () => {
  it('gone or alive only on this host, for a pid, from a probe that answers; unknown otherwise', () => {
    expect(holderState(record(), probe)).toBe('gone');
    expect(holderState(record({ pid: 77 }), probe)).toBe('alive');
    expect(holderState(record(), undefined)).toBe('unknown');
    expect(holderState(record({ host: 'build-8' }), probe)).toBe('unknown');
    expect(holderState(record({ host: null }), probe)).toBe('unknown');
    expect(holderState(record({ pid: null }), probe)).toBe('unknown');
    expect(holderState(record({ host: '' }), { host: '', isGone: () => true })).toBe('unknown');
    const throwing: ProcessProbe = {
      host: HOST,
      isGone: () => {
        throw new Error('probe failed');
      },
    };
    expect(holderState(record(), throwing)).toBe('unknown');
    const vague = { host: HOST, isGone: () => 'maybe' } as unknown as ProcessProbe;
    expect(holderState(record(), vague)).toBe('unknown');
  });
});

describe.each(FILE_SYSTEMS)('readLockStatus on the $name filesystem', ({ make }) => {
  let t: TestFs;
  let fs: FileSystem;
  const status = (processes: ProcessProbe | null = probe) =>
    readLockStatus(readOnly(fs, processes), LOCK, START + 8_000);
  beforeEach(async () => {
    t = await make();
    fs = t.fs;
  });
  afterEach(() => t.dispose());

  it('no lock file: no lock, no issue', async () => {
    expect(await status()).toEqual({ lock: null, issues: [] });
  });

  it('tells the holder, its heartbeat age (its heartbeat file when newer) and whether its process is there', async () => {
    await fs.writeText(LOCK, JSON.stringify(record({ heartbeat_at: START - 5_000 })));
    await fs.writeText(`${LOCK}.beat-tok`, JSON.stringify(record()));
    const gone = { owner: 'goal-loop:4164:x', pid: GONE, host: HOST, heartbeatAgeMs: 8_000, timeoutMs: TIMEOUT };
    expect(await status()).toEqual({ lock: { ...gone, holder: 'gone' }, issues: [] });
    expect((await status(null)).lock?.holder).toBe('unknown');
    await fs.writeText(LOCK, JSON.stringify(record({ pid: 77, heartbeat_at: START - 5_000 })));
    await fs.remove(`${LOCK}.beat-tok`);
    expect((await status()).lock).toMatchObject({ pid: 77, holder: 'alive', heartbeatAgeMs: 13_000 });
    await fs.writeText(LOCK, JSON.stringify(record({ host: 'build-8' })));
    expect((await status()).lock).toMatchObject({ host: 'build-8', holder: 'unknown' });
  });

  it('a lock file that is not a lock record is an issue and an unknown holder, never a throw', async () => {
    for (const text of ['{"owner": "half', '[]', '{"owner":"x","heartbeat_at":"soon","timeout_ms":1}']) {
      await fs.writeText(LOCK, text);
      const { lock, issues } = await status();
      expect(lock, text).toMatchObject({
        owner: 'unknown (unreadable lock file)',
        pid: null,
        host: null,
        timeoutMs: null,
        holder: 'unknown',
      });
      expect(lock?.heartbeatAgeMs).toEqual(expect.any(Number));
      expect(issues).toEqual([
        { code: 'invalid_lock', path: [], message: expect.stringMatching(/^loop\.lock is not a lock record: /) },
      ]);
    }
  });

  it('a directory at the lock path is an issue saying to remove it, never a throw', async () => {
    await fs.mkdir(LOCK);
    const { lock, issues } = await status();
    expect(lock).toMatchObject({ owner: 'unknown (unreadable lock file)', holder: 'unknown', heartbeatAgeMs: null });
    expect(issues).toEqual([
      {
        code: 'unreadable',
        path: [],
        message: expect.stringMatching(/^loop\.lock is a directory, .*remove it by hand/),
      },
    ]);
  });

  it('a lock file that cannot be read (a permission, a device error) is an issue naming it, never a throw', async () => {
    await fs.writeText(LOCK, JSON.stringify(record()));
    const denied = failing(fs, (method) => method === 'readBytes');
    const { lock, issues } = await readLockStatus(denied, LOCK, START + 8_000);
    expect(lock).toMatchObject({ owner: 'unknown (unreadable lock file)', heartbeatAgeMs: expect.any(Number) });
    expect(issues).toEqual([{ code: 'unreadable', path: [], message: 'loop.lock: crash at readBytes' }]);
  });

  it('a lock a live RunLock holds reads alive and stays held: the holder still fences, beats and releases', async () => {
    const clock = createManualClock(START);
    const held = new RunLock({ ...fs, processes: probe }, LOCK, clock, 'holder', TIMEOUT);
    await held.acquire();
    const before = await fs.readText(LOCK);
    const { lock } = await readLockStatus(readOnly(fs, { host: HOST, isGone: () => false }), LOCK, START + 1_000);
    expect(lock).toMatchObject({ owner: 'holder', pid: process.pid, heartbeatAgeMs: 1_000, holder: 'alive' });
    expect(await fs.readText(LOCK)).toBe(before);
    await held.fence();
    await held.heartbeat(true);
    await held.release();
    expect(await status()).toEqual({ lock: null, issues: [] });
  });
});
