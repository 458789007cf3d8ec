import { beforeEach, describe, expect, it } from 'vitest';
import type { FileSystem } from '../../src/ports/file-system.js';
import { RunLock } from '../../src/runtime/run-lock.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { gated } from './helpers.js';

// A holder paused between two steps of its own (a SIGSTOP, a long GC) while another loop takes the lock over.
// Each loop has its own manual clock: the paused one's time does not move, the newcomer's is past the timeout.

const LOCK = 'run/loop.lock';
const START = Date.UTC(2026, 0, 1);
const TIMEOUT = 10_000;
const held = async (fs: FileSystem) => JSON.parse((await fs.readText(LOCK)) ?? 'null') as { owner: string } | null;

describe('a holder paused mid-heartbeat', () => {
  let fs: FileSystem;
  beforeEach(() => {
    fs = createMemoryFileSystem();
  });

  it('never takes the lock back: its late heartbeat leaves the new holder’s lock alone and its next fence fails', async () => {
    // A's heartbeat has checked the lock (still A's) and is paused before it writes.
    const paused = gated(fs, (method) => method === 'writeText');
    const a = new RunLock(paused.fs, LOCK, createManualClock(START), 'a', TIMEOUT);
    await a.acquire();
    const beating = a.heartbeat(true);
    await paused.reached;
    const b = new RunLock(fs, LOCK, createManualClock(START + TIMEOUT + 1), 'b', TIMEOUT);
    expect(await b.acquire()).toEqual({ previousOwner: 'a', ageMs: TIMEOUT + 1, reason: 'heartbeat_stale' });
    const lockOfB = await fs.readText(LOCK);
    // A wakes up and its heartbeat write lands.
    paused.open();
    await beating.catch(() => undefined);
    expect(await fs.readText(LOCK)).toBe(lockOfB);
    expect((await held(fs))?.owner).toBe('b');
    await expect(a.fence()).rejects.toMatchObject({
      code: 'RUN_LOCKED',
      message: expect.stringContaining('held by b'),
    });
    await expect(a.heartbeat(true)).rejects.toMatchObject({ code: 'RUN_LOCKED' });
    await b.fence();
    await a.release();
    expect(await fs.list('run')).toEqual(['loop.lock']);
    await b.release();
    expect(await fs.list('run')).toEqual([]);
  });

  it('a newcomer paused after finding the lock stale does not take it once the holder beat again', async () => {
    const clockA = createManualClock(START);
    const a = new RunLock(fs, LOCK, clockA, 'a', TIMEOUT);
    await a.acquire();
    // The newcomer found the lock stale and is paused before it claims the takeover.
    const paused = gated(fs, (method, args) => method === 'createExclusive' && String(args[0]).includes('takeover'));
    const b = new RunLock(paused.fs, LOCK, createManualClock(START + TIMEOUT + 1), 'b', TIMEOUT);
    const taking = b.acquire();
    await paused.reached;
    clockA.advance(TIMEOUT + 1);
    await a.heartbeat(true);
    paused.open();
    await expect(taking).rejects.toMatchObject({ code: 'RUN_LOCKED' });
    await a.fence();
    expect((await held(fs))?.owner).toBe('a');
  });
});
