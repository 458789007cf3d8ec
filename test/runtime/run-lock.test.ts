import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileSystem } from '../../src/ports/file-system.js';
import { RunLock } from '../../src/runtime/run-lock.js';
import { createManualClock, type ManualClock } from '../../src/testing/manual-clock.js';
import { beatAt, FILE_SYSTEMS, type TestFs } from './helpers.js';

const LOCK = 'run/loop.lock';
const START = Date.UTC(2026, 0, 1);
const TIMEOUT = 10_000;
const staleRecord = (owner: string, ageMs: number, timeoutMs = TIMEOUT) =>
  JSON.stringify({ owner, pid: 7, heartbeat_at: START - ageMs, heartbeat_iso: '', timeout_ms: timeoutMs });
const holder = async (fs: FileSystem) => (JSON.parse((await fs.readText(LOCK)) ?? 'null') as { owner: string }).owner;

describe.each(FILE_SYSTEMS)('RunLock on the $name filesystem', ({ make }) => {
  let t: TestFs;
  let fs: FileSystem;
  let clock: ManualClock;
  const lock = (owner: string, timeoutMs = TIMEOUT, on = fs) => new RunLock(on, LOCK, clock, owner, timeoutMs);
  beforeEach(async () => {
    t = await make();
    fs = t.fs;
    clock = createManualClock(START);
  });
  afterEach(() => t.dispose());

  it('one holder at a time: a second loop gets RUN_LOCKED naming the holder; release frees the run', async () => {
    const a = lock('a');
    expect(await a.acquire()).toBeNull();
    await expect(lock('b').acquire()).rejects.toMatchObject({
      code: 'RUN_LOCKED',
      message: expect.stringContaining('by a'),
    });
    await lock('b').release();
    expect(await holder(fs)).toBe('a');
    await a.release();
    expect(await fs.readText(LOCK)).toBeNull();
    expect(await lock('b').acquire()).toBeNull();
  });

  it('a lock exactly its timeout old is held; one ms older it is taken over and the takeover reported', async () => {
    await fs.writeText(LOCK, staleRecord('ghost', TIMEOUT));
    await expect(lock('b').acquire()).rejects.toMatchObject({ code: 'RUN_LOCKED' });
    clock.advance(1);
    expect(await lock('b').acquire()).toEqual({
      previousOwner: 'ghost',
      ageMs: TIMEOUT + 1,
      reason: 'heartbeat_stale',
    });
    expect(await holder(fs)).toBe('b');
    expect((await fs.list('run'))?.filter((name) => name !== 'loop.lock')).toEqual([]);
  });

  it('staleness uses the smaller timeout: the newcomer’s own, or the one the holder promised', async () => {
    // The holder promised 10 minutes; the newcomer was told 1 s: 1.5 s without a heartbeat is stale to it.
    await fs.writeText(LOCK, staleRecord('patient', 1_500, 600_000));
    await expect(lock('strict', 600_000).acquire()).rejects.toMatchObject({ code: 'RUN_LOCKED' });
    expect(await lock('strict', 1_000).acquire()).toEqual({
      previousOwner: 'patient',
      ageMs: 1_500,
      reason: 'heartbeat_stale',
    });
    // The holder promised 1 s; a newcomer told 10 minutes does not wait longer than the holder said.
    await fs.writeText(LOCK, staleRecord('quick', 1_500, 1_000));
    expect(await lock('lenient', 600_000).acquire()).toEqual({
      previousOwner: 'quick',
      ageMs: 1_500,
      reason: 'heartbeat_stale',
    });
  });

  it('an unreadable lock file is stale from its last change, and taken over', async () => {
    await fs.writeText(LOCK, '{"owner":"half');
    clock.set(Date.now() + TIMEOUT + 60_000);
    expect(await lock('b').acquire()).toMatchObject({ previousOwner: 'unknown (unreadable lock file)' });
    expect(await holder(fs)).toBe('b');
  });

  it('fence: passes while held, rejects with RUN_LOCKED once the lock was taken over (even between heartbeats)', async () => {
    const a = lock('a');
    await a.acquire();
    await a.fence();
    clock.advance(TIMEOUT + 1);
    const b = lock('b');
    expect(await b.acquire()).toMatchObject({ previousOwner: 'a' });
    await expect(a.fence()).rejects.toMatchObject({
      code: 'RUN_LOCKED',
      message: expect.stringContaining('now held by b'),
    });
    // A heartbeat that is not due yet would not notice; the fence always reads.
    await b.fence();
    await a.release();
    expect(await holder(fs)).toBe('b');
  });

  it('the fencing token tells two acquisitions by the same owner apart', async () => {
    const first = lock('same');
    await first.acquire();
    clock.advance(TIMEOUT + 1);
    const second = lock('same');
    expect(await second.acquire()).toMatchObject({ previousOwner: 'same' });
    await expect(first.fence()).rejects.toMatchObject({ code: 'RUN_LOCKED' });
    await first.release();
    await second.fence();
  });

  it('fence and heartbeat refresh the heartbeat (its own file, never the lock) when a third of the timeout passed', async () => {
    const a = lock('a', 9_000);
    await a.acquire();
    const taken = await fs.readText(LOCK);
    clock.advance(2_999);
    await a.fence();
    expect(await beatAt(fs, LOCK)).toBe(START);
    clock.advance(1);
    await a.fence();
    expect(await beatAt(fs, LOCK)).toBe(START + 3_000);
    clock.advance(3_000);
    await a.heartbeat();
    expect(await beatAt(fs, LOCK)).toBe(START + 6_000);
    expect(await fs.readText(LOCK)).toBe(taken);
    // A lock kept fresh is never stale to a newcomer.
    clock.advance(9_000);
    await a.heartbeat(true);
    await expect(lock('b').acquire()).rejects.toMatchObject({ code: 'RUN_LOCKED' });
    await a.release();
    expect(await fs.list('run')).toEqual([]);
  });

  it('the heartbeat file decides staleness: exactly the timeout since the last beat is held, 1 ms more is stale', async () => {
    const a = lock('a');
    await a.acquire();
    clock.advance(5_000);
    await a.heartbeat(true);
    clock.advance(TIMEOUT);
    await expect(lock('b').acquire()).rejects.toMatchObject({ code: 'RUN_LOCKED' });
    clock.advance(1);
    expect(await lock('b').acquire()).toEqual({ previousOwner: 'a', ageMs: TIMEOUT + 1, reason: 'heartbeat_stale' });
    // The old holder's heartbeat file went with the takeover.
    expect(await fs.list('run')).toEqual(['loop.lock']);
    await expect(a.fence()).rejects.toMatchObject({ code: 'RUN_LOCKED' });
  });

  it('a heartbeat file not of the lock’s token is never consulted', async () => {
    await fs.writeText(LOCK, staleRecord('ghost', TIMEOUT + 1));
    const a = lock('a');
    // A holder taken over long ago woke up and beat into its own file: it does not make the ghost's lock fresh.
    await fs.writeText(
      `${LOCK}.beat-x`,
      JSON.stringify({ owner: 'ghost', token: 'x', heartbeat_at: START, timeout_ms: TIMEOUT }),
    );
    expect(await a.acquire()).toMatchObject({ previousOwner: 'ghost' });
  });

  it('a claim left by a newcomer that died mid-takeover blocks others only until it is itself stale', async () => {
    await fs.writeText(LOCK, staleRecord('ghost', TIMEOUT + 1));
    // A newcomer killed between claiming the stale lock and replacing it (nothing after the claim happens).
    const killed = new Proxy(fs, {
      get: (target, key, receiver) =>
        key === 'writeText' || key === 'remove'
          ? async () => Promise.reject(new Error('killed'))
          : Reflect.get(target, key, receiver),
    });
    await expect(new RunLock(killed, LOCK, clock, 'dead', TIMEOUT).acquire()).rejects.toThrow('killed');
    expect((await fs.list('run'))?.some((name) => name.includes('takeover'))).toBe(true);
    await expect(lock('b').acquire()).rejects.toMatchObject({
      code: 'RUN_LOCKED',
      message: expect.stringContaining('taking over'),
    });
    clock.advance(TIMEOUT + 1);
    expect(await lock('c').acquire()).toMatchObject({ previousOwner: 'ghost' });
    expect(await holder(fs)).toBe('c');
    // The winner removed the dead newcomer's claim.
    expect(await fs.list('run')).toEqual(['loop.lock']);
  });

  it('an acquisition sweeps the claims and heartbeat files left next to the lock once older than the timeout', async () => {
    const left = (owner: string, at: number) =>
      JSON.stringify({ owner, token: owner, heartbeat_at: at, timeout_ms: 1 });
    await fs.writeText(`${LOCK}.takeover-0123456789abcdef-0`, left('dead', START - TIMEOUT - 1));
    await fs.writeText(`${LOCK}.takeover-0123456789abcdef-1`, left('live', START - TIMEOUT));
    await fs.writeText(`${LOCK}.beat-old`, left('old', START - TIMEOUT - 1));
    await fs.writeText(`${LOCK}.beat-new`, left('new', START));
    await fs.writeText('run/loop.lock.json', 'not ours');
    expect(await lock('a').acquire()).toBeNull();
    expect(await fs.list('run')).toEqual([
      'loop.lock',
      'loop.lock.beat-new',
      'loop.lock.json',
      'loop.lock.takeover-0123456789abcdef-1',
    ]);
  });
});
