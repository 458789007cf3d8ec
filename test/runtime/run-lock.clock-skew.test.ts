import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fnv1a64 } from '../../src/kit/hash.js';
import { readLockStatus } from '../../src/runtime/lock-status.js';
import { RunLock } from '../../src/runtime/run-lock.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { DATED_FILE_SYSTEMS, type DatedFs, NOW_S } from './dated-fs.js';
import { LOCK, lockText, probe, record } from './lock-fixtures.js';

// A lock whose recorded heartbeat lies ahead of the reader's clock: a holder on a host whose clock runs fast, or a
// hostile file. Believed when at most the timeout ahead; further ahead, dated by when its files last changed.

const TIMEOUT = 600_000;
const HOUR = 3_600_000;
// A holder on another host, so only its heartbeat decides.
const remote = (fields: Parameters<typeof lockText>[0] = {}) =>
  lockText({ host: 'build-9', pid: 4242, timeout_ms: TIMEOUT, ...fields });

describe.each(DATED_FILE_SYSTEMS)('a heartbeat ahead of this clock, on the $name filesystem', ({ make }) => {
  let t: DatedFs;
  const lock = (owner: string, timeoutMs = TIMEOUT) => new RunLock(t.fs, LOCK, t.clock, owner, timeoutMs);
  beforeEach(async () => {
    t = await make();
  });
  afterEach(() => t.dispose());

  it('an hour ahead: held while its files are younger than the timeout, taken over after it by this clock', async () => {
    await t.writeAt(LOCK, remote({ heartbeat_at: NOW_S + HOUR }), NOW_S - 60_000);
    await t.writeAt(`${LOCK}.beat-tok`, remote({ heartbeat_at: NOW_S + HOUR + 30_000 }), NOW_S);
    t.clock.advance(TIMEOUT);
    const locked = lock('b').acquire();
    await expect(locked).rejects.toMatchObject({ code: 'RUN_LOCKED' });
    const message = ((await locked.catch((error: unknown) => error)) as Error).message;
    expect(message).toContain(
      'heartbeat 3030 s ahead of this clock, too far to trust, so judged by when its lock files last changed: 600 s ago',
    );
    expect(message).not.toMatch(/-\d+ s/);
    // A fraction of a millisecond past (file times and clocks may carry one): the age is reported in whole ms.
    t.clock.advance(1.25);
    expect(await lock('b').acquire()).toEqual({
      previousOwner: 'goal-loop:4164:x',
      ageMs: TIMEOUT + 1,
      reason: 'heartbeat_stale',
    });
    expect(await t.fs.readText(`${LOCK}.beat-tok`)).toBeNull();
  });

  it('files dated ahead too: held until this clock passes their date plus the timeout, and the message says so', async () => {
    await t.writeAt(LOCK, remote({ heartbeat_at: NOW_S + HOUR }), NOW_S + HOUR);
    const locked = lock('b').acquire();
    await expect(locked).rejects.toMatchObject({ code: 'RUN_LOCKED' });
    const message = ((await locked.catch((error: unknown) => error)) as Error).message;
    expect(message).toContain(
      'Its lock files are dated 3600 s ahead of this clock too, so no loop takes it over for another 4200 s: remove it by hand if no loop runs.',
    );
    expect(message).not.toMatch(/-\d+ s/);
    t.clock.advance(HOUR + TIMEOUT + 1);
    expect(await lock('b').acquire()).toMatchObject({ reason: 'heartbeat_stale' });
  });

  it('a hostile heartbeat (8.64e15, 1e308) never locks the run: lockTimeoutMs 1 takes it over', async () => {
    for (const [heartbeat, timeout] of [
      [8.64e15, 1],
      [1e308, 0],
    ] as const) {
      const text = lockText({ pid: null, host: null, heartbeat_at: heartbeat, timeout_ms: timeout });
      await t.writeAt(LOCK, text, t.clock.now());
      await expect(lock('b', 1).acquire()).rejects.toMatchObject({ code: 'RUN_LOCKED' });
      t.clock.advance(2);
      expect(await lock('b', 1).acquire()).toMatchObject({ ageMs: 2, reason: 'heartbeat_stale' });
      await t.fs.remove(LOCK);
      t.clock.advance(998);
    }
  });

  it('a heartbeat at most the timeout ahead (clocks a little apart) is believed, however old its files', async () => {
    await t.writeAt(LOCK, remote({ heartbeat_at: NOW_S + TIMEOUT }), NOW_S - HOUR);
    await expect(lock('b').acquire()).rejects.toMatchObject({
      code: 'RUN_LOCKED',
      message: expect.stringContaining('heartbeat 600 s ahead of this clock, stale after 600 s'),
    });
    await t.writeAt(LOCK, remote({ heartbeat_at: NOW_S + 2_000 }), NOW_S - HOUR);
    await expect(lock('b').acquire()).rejects.toMatchObject({
      message: expect.stringContaining('heartbeat 2 s ahead of this clock, stale after'),
    });
    // One ms further ahead than the timeout, it is not: its files are an hour old.
    await t.writeAt(LOCK, remote({ heartbeat_at: NOW_S + TIMEOUT + 1 }), NOW_S - HOUR);
    expect(await lock('b').acquire()).toMatchObject({ ageMs: HOUR, reason: 'heartbeat_stale' });
  });

  it('a gone holder whose heartbeat is a little ahead is taken over at once, its age reported as 0', async () => {
    await t.writeAt(LOCK, lockText({ heartbeat_at: NOW_S + 2_000 }), NOW_S);
    const newcomer = new RunLock({ ...t.fs, processes: probe }, LOCK, t.clock, 'b', TIMEOUT);
    expect(await newcomer.acquire()).toEqual({ previousOwner: 'goal-loop:4164:x', ageMs: 0, reason: 'holder_gone' });
  });

  it('a claim dated ahead, left by a newcomer that died mid-takeover, blocks only until its file is stale', async () => {
    const stale = record({ host: 'build-9', heartbeat_at: NOW_S - HOUR });
    await t.writeAt(LOCK, JSON.stringify(stale), NOW_S - HOUR);
    const claim = `${LOCK}.takeover-${fnv1a64(`${stale.owner}\n${stale.token}\n${stale.heartbeat_at}`)}-0`;
    await t.writeAt(claim, remote({ owner: 'dead', token: 'dead', heartbeat_at: NOW_S + HOUR }), NOW_S);
    await expect(lock('b').acquire()).rejects.toMatchObject({ message: expect.stringContaining('taking over') });
    t.clock.advance(TIMEOUT + 1);
    expect(await lock('c').acquire()).toMatchObject({ previousOwner: stale.owner });
    expect(await t.fs.list('run')).toEqual(['loop.lock']);
  });

  it('heartbeat files left dated ahead are swept once their files are older than the timeout', async () => {
    await t.writeAt(`${LOCK}.beat-old`, remote({ token: 'old', heartbeat_at: NOW_S + HOUR }), NOW_S - TIMEOUT - 1);
    await t.writeAt(`${LOCK}.beat-new`, remote({ token: 'new', heartbeat_at: NOW_S + HOUR }), NOW_S - TIMEOUT);
    expect(await lock('a').acquire()).toBeNull();
    expect(await t.fs.list('run')).toEqual(['loop.lock', 'loop.lock.beat-new']);
  });

  it('readLockStatus dates it as a loop does and says the heartbeat is ahead; a little ahead reads age 0', async () => {
    await t.writeAt(LOCK, remote({ heartbeat_at: NOW_S + HOUR }), NOW_S - 5_000);
    expect(await readLockStatus(t.fs, LOCK, NOW_S)).toEqual({
      lock: expect.objectContaining({ heartbeatAgeMs: 5_000, timeoutMs: TIMEOUT, holder: 'unknown' }),
      issues: [
        {
          code: 'heartbeat_ahead',
          path: [],
          message: expect.stringMatching(
            /^loop\.lock's heartbeat is 3600 s ahead of this clock, more than the lock timeout/,
          ),
        },
      ],
    });
    await t.writeAt(LOCK, remote({ heartbeat_at: NOW_S + 2_000 }), NOW_S - 5_000);
    expect(await readLockStatus(t.fs, LOCK, NOW_S)).toEqual({
      lock: expect.objectContaining({ heartbeatAgeMs: 0 }),
      issues: [],
    });
    // Read for a loop with a smaller lock timeout, as that loop judges it: the heartbeat is too far ahead for it.
    expect(await readLockStatus(t.fs, LOCK, NOW_S, 1_000)).toEqual({
      lock: expect.objectContaining({ heartbeatAgeMs: 5_000, timeoutMs: 1_000 }),
      issues: [expect.objectContaining({ code: 'heartbeat_ahead' })],
    });
  });
});

describe('a live holder whose clock runs an hour fast (memory filesystem dated by the reader’s clock)', () => {
  it('keeps its lock while it beats, and loses it once it stopped beating for the timeout', async () => {
    const t = await DATED_FILE_SYSTEMS[0].make();
    const fast = createManualClock(NOW_S + HOUR);
    const holder = new RunLock(t.fs, LOCK, fast, 'fast', TIMEOUT);
    await holder.acquire();
    for (let round = 0; round < 6; round++) {
      t.clock.advance(TIMEOUT / 2);
      fast.advance(TIMEOUT / 2);
      await holder.heartbeat();
      await expect(new RunLock(t.fs, LOCK, t.clock, 'b', TIMEOUT).acquire()).rejects.toMatchObject({
        code: 'RUN_LOCKED',
        message: expect.stringContaining('last changed: 0 s ago'),
      });
      await holder.fence();
    }
    t.clock.advance(TIMEOUT);
    await expect(new RunLock(t.fs, LOCK, t.clock, 'b', TIMEOUT).acquire()).rejects.toMatchObject({
      code: 'RUN_LOCKED',
    });
    t.clock.advance(1);
    expect(await new RunLock(t.fs, LOCK, t.clock, 'b', TIMEOUT).acquire()).toMatchObject({ previousOwner: 'fast' });
    await expect(holder.fence()).rejects.toMatchObject({ code: 'RUN_LOCKED' });
  });
});
