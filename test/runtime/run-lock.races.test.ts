import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { FileSystem } from '../../src/ports/file-system.js';
import { withHeartbeat } from '../../src/runtime/heartbeat.js';
import { createJsonStore } from '../../src/runtime/json-store.js';
import { JsonlLog } from '../../src/runtime/jsonl-log.js';
import { OutboxCommit } from '../../src/runtime/outbox.js';
import { RunLock } from '../../src/runtime/run-lock.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { beatAt, FILE_SYSTEMS, jittery, seeded, type TestFs } from './helpers.js';

const LOCK = 'run/loop.lock';
const START = Date.UTC(2026, 0, 1);
const TIMEOUT = 10_000;
const stale = JSON.stringify({ owner: 'ghost', pid: 7, heartbeat_at: START - TIMEOUT - 1, timeout_ms: TIMEOUT });

describe.each(FILE_SYSTEMS)('racing for a stale lock on the $name filesystem', ({ make }) => {
  let t: TestFs;
  beforeEach(async () => {
    t = await make();
  });
  afterEach(() => t.dispose());

  it('of N newcomers exactly one wins, and that winner is told it took the lock over', async () => {
    for (let round = 0; round < 25; round++) {
      const fs = jittery(t.fs, seeded(round));
      await t.fs.writeText(LOCK, stale);
      const clock = createManualClock(START);
      const racers = Array.from({ length: 6 }, (_, i) => new RunLock(fs, LOCK, clock, `r${i}`, TIMEOUT));
      const outcomes = await Promise.allSettled(racers.map((lock) => lock.acquire()));
      const won = outcomes.flatMap((outcome, i) =>
        outcome.status === 'fulfilled' ? [{ i, value: outcome.value }] : [],
      );
      expect(won, `round ${round}`).toHaveLength(1);
      expect(won[0]?.value, `round ${round}`).toEqual({
        previousOwner: 'ghost',
        ageMs: TIMEOUT + 1,
        reason: 'heartbeat_stale',
      });
      for (const outcome of outcomes)
        if (outcome.status === 'rejected') expect(outcome.reason).toMatchObject({ code: 'RUN_LOCKED' });
      const winner = racers[won[0]?.i ?? -1] as RunLock;
      await winner.fence();
      for (const loser of racers) if (loser !== winner) await expect(loser.fence()).rejects.toMatchObject({});
      expect(await t.fs.list('run')).toEqual(['loop.lock']);
      await winner.release();
    }
  });
});

describe.each(FILE_SYSTEMS)('a holder that lost its lock on the $name filesystem', ({ make }) => {
  let t: TestFs;
  beforeEach(async () => {
    t = await make();
  });
  afterEach(() => t.dispose());

  it('writes nothing more: with fence as the guard its next commit is refused before any write', async () => {
    const schema = z.object({ outbox: z.array(z.object({ seq: z.int(), by: z.string() })) });
    const commitAs = (lock: RunLock) =>
      new OutboxCommit(createJsonStore(t.fs, 'run/state.json', schema), new JsonlLog(t.fs, 'run/events.jsonl'), () =>
        lock.fence(),
      );
    // The stalled holder's own clock has not moved (it was stopped), so no heartbeat is due when it wakes.
    const a = new RunLock(t.fs, LOCK, createManualClock(START), 'a', TIMEOUT);
    await a.acquire();
    await commitAs(a).commit({ outbox: [{ seq: 0, by: 'a' }] });
    const b = new RunLock(t.fs, LOCK, createManualClock(START + TIMEOUT + 1), 'b', TIMEOUT);
    expect(await b.acquire()).toMatchObject({ previousOwner: 'a' });
    await commitAs(b).commit({ outbox: [{ seq: 1, by: 'b' }] });
    await expect(commitAs(a).commit({ outbox: [{ seq: 2, by: 'a' }] })).rejects.toMatchObject({ code: 'RUN_LOCKED' });
    expect(JSON.parse((await t.fs.readText('run/state.json')) ?? '')).toEqual({ outbox: [{ seq: 1, by: 'b' }] });
    expect(await t.fs.readText('run/events.jsonl')).toBe('{"seq":0,"by":"a"}\n{"seq":1,"by":"b"}\n');
  });
});

describe('withHeartbeat', () => {
  let fs: FileSystem;
  beforeEach(async () => {
    fs = (await FILE_SYSTEMS[0]?.make())?.fs as FileSystem;
  });
  const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('keeps the lock fresh while the work runs, and stops beating when it ends', async () => {
    const clock = createManualClock(START);
    const lock = new RunLock(fs, LOCK, clock, 'a', TIMEOUT);
    await lock.acquire();
    let finish!: (value: string) => void;
    const work = withHeartbeat(lock, clock, 3_000, () => new Promise<string>((resolve) => (finish = resolve)));
    for (let i = 1; i <= 5; i++) {
      clock.advance(3_000);
      await tick();
      expect(await beatAt(fs, LOCK)).toBe(START + i * 3_000);
    }
    finish('done');
    await expect(work).resolves.toBe('done');
    expect(clock.pending()).toBe(0);
    clock.advance(3_000);
    await tick();
    expect(await beatAt(fs, LOCK)).toBe(START + 15_000);
  });

  it('a lock lost while the work runs: the work’s result is discarded and RUN_LOCKED thrown', async () => {
    const clock = createManualClock(START);
    const lock = new RunLock(fs, LOCK, clock, 'a', TIMEOUT);
    await lock.acquire();
    let finish!: (value: string) => void;
    const work = withHeartbeat(lock, clock, 3_000, () => new Promise<string>((resolve) => (finish = resolve)));
    await fs.writeText(LOCK, JSON.stringify({ owner: 'thief', heartbeat_at: START, timeout_ms: TIMEOUT }));
    clock.advance(3_000);
    await tick();
    finish('done');
    await expect(work).rejects.toMatchObject({ code: 'RUN_LOCKED' });
    expect(await fs.readText(LOCK)).toContain('thief');
  });
});
