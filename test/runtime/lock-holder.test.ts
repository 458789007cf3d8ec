import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fnv1a64 } from '../../src/kit/hash.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import type { ProcessProbe } from '../../src/ports/process-probe.js';
import { staleReason } from '../../src/runtime/lock-holder.js';
import type { LockRecord } from '../../src/runtime/lock-record.js';
import { RunLock } from '../../src/runtime/run-lock.js';
import { createManualClock, type ManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { FILE_SYSTEMS, type TestFs } from './helpers.js';
import { GONE, HOST, LOCK, lockText, probe, record, START, TIMEOUT } from './lock-fixtures.js';

describe('staleReason', () => {
  it('a fresh heartbeat is held unless the holder ran on this host and its process is gone', () => {
    expect(staleReason(record({}), 8_000, TIMEOUT, probe)).toBe('holder_gone');
    expect(staleReason(record({ pid: 77 }), 8_000, TIMEOUT, probe)).toBeNull();
    expect(staleReason(record({ host: 'build-8' }), 8_000, TIMEOUT, probe)).toBeNull();
    expect(staleReason(record({ host: null }), 8_000, TIMEOUT, probe)).toBeNull();
    expect(staleReason(record({ pid: null }), 8_000, TIMEOUT, { host: HOST, isGone: () => true })).toBeNull();
    expect(staleReason(record({}), 8_000, TIMEOUT, undefined)).toBeNull();
    expect(staleReason(record({ host: '' }), 8_000, TIMEOUT, { host: '', isGone: () => true })).toBeNull();
  });

  it('a probe that throws is a doubt, never a takeover; a lock file naming pid 0 or -1 names no holder', async () => {
    const throwing: ProcessProbe = {
      get host(): string {
        throw new Error('no host');
      },
      isGone: () => true,
    };
    expect(staleReason(record({}), 8_000, TIMEOUT, throwing)).toBeNull();
    const failing: ProcessProbe = {
      host: HOST,
      isGone: () => {
        throw new Error('probe failed');
      },
    };
    expect(staleReason(record({}), 8_000, TIMEOUT, failing)).toBeNull();
    const everyoneGone: ProcessProbe = { host: HOST, isGone: () => true };
    for (const pid of [0, -1, 1.5]) {
      const fs = createMemoryFileSystem({ files: { [LOCK]: lockText({ pid }) }, processes: everyoneGone });
      const lock = new RunLock(fs, LOCK, createManualClock(START + 8_000), 'newcomer', TIMEOUT);
      await expect(lock.acquire()).rejects.toMatchObject({ code: 'RUN_LOCKED' });
    }
  });

  it('a heartbeat older than the timeout is stale for every holder, without asking about its process', () => {
    const asked: number[] = [];
    const counting: ProcessProbe = { host: HOST, isGone: (pid) => asked.push(pid) > 0 };
    expect(staleReason(record({ pid: 77, host: 'build-8' }), TIMEOUT + 1, TIMEOUT, counting)).toBe('heartbeat_stale');
    expect(staleReason(record({}), TIMEOUT + 1, TIMEOUT, counting)).toBe('heartbeat_stale');
    expect(asked).toEqual([]);
  });
});

describe.each(FILE_SYSTEMS)('RunLock with a probe on the $name filesystem', ({ make }) => {
  let t: TestFs;
  let fs: FileSystem;
  let clock: ManualClock;
  // A lock on the filesystem with `on` as its processes (null: none).
  const lock = (owner: string, on: ProcessProbe | null = probe) =>
    new RunLock({ ...fs, processes: on ?? undefined }, LOCK, clock, owner, TIMEOUT);
  const holder = async () => (JSON.parse((await fs.readText(LOCK)) ?? 'null') as LockRecord).owner;
  beforeEach(async () => {
    t = await make();
    fs = t.fs;
    clock = createManualClock(START);
  });
  afterEach(() => t.dispose());

  it('takes over at once a lock whose holder is gone from this host, and says why', async () => {
    await fs.writeText(LOCK, lockText({ heartbeat_at: START - 8_000 }));
    await fs.writeText(`${LOCK}.beat-tok`, lockText({ heartbeat_at: START - 1_000 }));
    expect(await lock('b').acquire()).toEqual({
      previousOwner: 'goal-loop:4164:x',
      ageMs: 1_000,
      reason: 'holder_gone',
    });
    expect(await holder()).toBe('b');
    expect(await fs.readText(`${LOCK}.beat-tok`)).toBeNull();
  });

  it('writes this host into the lock and heartbeat records, which a newcomer on another host does not judge', async () => {
    const a = lock('a', { host: 'build-8', isGone: () => false });
    await a.acquire();
    await a.heartbeat(true);
    const beat = (await fs.list('run'))?.find((name) => name.startsWith('loop.lock.beat-'));
    for (const path of [LOCK, `run/${beat}`])
      expect(JSON.parse((await fs.readText(path)) ?? '')).toMatchObject({ host: 'build-8', pid: process.pid });
    // On build-7 every pid but GONE is alive, and this record names build-8: even pid GONE there is not judged.
    await fs.writeText(LOCK, lockText({ host: 'build-8' }));
    await expect(lock('b').acquire()).rejects.toMatchObject({ code: 'RUN_LOCKED' });
  });

  it('keeps a lock whose holder is alive, on another host, or unnamed, until its heartbeat is stale', async () => {
    for (const fields of [{ pid: 77 }, { host: 'build-8' }, { host: null }, { pid: null }]) {
      await fs.writeText(LOCK, lockText(fields));
      clock.set(START + TIMEOUT);
      await expect(lock('b').acquire(), JSON.stringify(fields)).rejects.toMatchObject({
        code: 'RUN_LOCKED',
        message: expect.stringContaining('pass a smaller lockTimeoutMs'),
      });
      clock.set(START + TIMEOUT + 1);
      expect(await lock('b').acquire()).toMatchObject({ reason: 'heartbeat_stale', ageMs: TIMEOUT + 1 });
      await fs.remove(LOCK);
      clock = createManualClock(START);
    }
  });

  it('two places with different identities do not take the gone pids of one another', async () => {
    // Two containers with one host name and their own pid namespaces: pid GONE is gone in each, yet neither judges
    // the other's record.
    const inA: ProcessProbe = { host: 'build-7/pid:[4026532201]', isGone: (pid) => pid === GONE };
    const inB: ProcessProbe = { host: 'build-7/pid:[4026532305]', isGone: (pid) => pid === GONE };
    for (const [writer, reader] of [
      [inA, inB],
      [inB, inA],
    ] as const) {
      await fs.writeText(LOCK, lockText({ host: writer.host }));
      await expect(lock('b', reader).acquire()).rejects.toMatchObject({ code: 'RUN_LOCKED' });
      expect(await lock('b', writer).acquire()).toMatchObject({ reason: 'holder_gone' });
      await fs.remove(LOCK);
    }
  });

  it('without processes (no probe) a gone holder waits for the heartbeat timeout', async () => {
    await fs.writeText(LOCK, lockText({}));
    clock.set(START + TIMEOUT);
    await expect(lock('b', null).acquire()).rejects.toMatchObject({ code: 'RUN_LOCKED' });
    clock.set(START + TIMEOUT + 1);
    expect(await lock('b', null).acquire()).toMatchObject({ reason: 'heartbeat_stale' });
  });

  it('steps over at once a takeover claim whose writer is gone; a live one keeps its claim', async () => {
    const stale = record({});
    const claim = `${LOCK}.takeover-${fnv1a64(`${stale.owner}\n${stale.token}\n${stale.heartbeat_at}`)}-0`;
    await fs.writeText(LOCK, lockText({}));
    await fs.writeText(claim, lockText({ owner: 'claimer', pid: 77 }));
    await expect(lock('b').acquire()).rejects.toMatchObject({ message: expect.stringContaining('taking over') });
    await fs.writeText(claim, lockText({ owner: 'claimer' }));
    expect(await lock('b').acquire()).toMatchObject({ reason: 'holder_gone' });
    expect(await holder()).toBe('b');
  });
});
