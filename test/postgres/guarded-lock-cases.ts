import { describe, expect, it } from 'vitest';
import type { FileGuard, FileSystem } from '../../src/ports/file-system.js';
import { RunLock } from '../../src/runtime/run-lock.js';
import { createManualClock } from '../../src/testing/manual-clock.js';

// The run lock on a filesystem with a compare-and-swap: a takeover is one guarded replace, and every write through
// the holder's writer checks its token in the same statement, so the windows of a plain filesystem are closed.

const LOCK = 'run/loop.lock';
const START = Date.UTC(2026, 0, 1);
const TIMEOUT = 10_000;
const ownerOf = async (fs: FileSystem) => (JSON.parse((await fs.readText(LOCK)) ?? 'null') as { owner: string })?.owner;

// `fs` whose guarded writes wait for `gate` first (a newcomer paused after judging the lock stale).
function pausedGuards(fs: FileSystem, gate: Promise<void>, reached: () => void): FileSystem {
  return {
    ...fs,
    guarded: (guards: readonly FileGuard[]) => {
      const view = fs.guarded?.(guards) as FileSystem;
      return {
        ...view,
        writeText: async (path, text) => {
          reached();
          await gate;
          return view.writeText(path, text);
        },
      };
    },
  };
}

/** Registers the cases of the run lock on a guarded filesystem; `fresh` makes an empty one per case. */
export function describeGuardedLock(name: string, fresh: () => FileSystem): void {
  describe(`the run lock on ${name} (guarded writes)`, () => {
    it('refuses the write of a holder that lost the lock, even one that passed its fence just before', async () => {
      const fs = fresh();
      const a = new RunLock(fs, LOCK, createManualClock(START), 'a', TIMEOUT);
      await a.acquire();
      await a.writer.writeText('run/state.json', '{"by":"a"}');
      await a.fence();
      const b = new RunLock(fs, LOCK, createManualClock(START + TIMEOUT + 1), 'b', TIMEOUT);
      expect(await b.acquire()).toEqual({ previousOwner: 'a', ageMs: TIMEOUT + 1, reason: 'heartbeat_stale' });
      await expect(a.writer.writeText('run/state.json', '{"by":"a late"}')).rejects.toMatchObject({
        code: 'RUN_LOCKED',
      });
      await expect(a.writer.appendText('run/events.jsonl', 'x\n')).rejects.toMatchObject({ code: 'RUN_LOCKED' });
      expect(await fs.readText('run/state.json')).toBe('{"by":"a"}');
      expect(await fs.readText('run/events.jsonl')).toBeNull();
      await b.writer.writeText('run/state.json', '{"by":"b"}');
      await a.release();
      expect(await ownerOf(fs)).toBe('b');
      await b.release();
      expect(await fs.readText(LOCK)).toBeNull();
    });

    it('lets exactly one of many newcomers take over a stale lock, with no claim files', async () => {
      const fs = fresh();
      await new RunLock(fs, LOCK, createManualClock(START), 'gone', TIMEOUT).acquire();
      const newcomers = ['n1', 'n2', 'n3', 'n4', 'n5'].map(
        (owner) => new RunLock(fs, LOCK, createManualClock(START + TIMEOUT + 1), owner, TIMEOUT),
      );
      const results = await Promise.allSettled(newcomers.map((lock) => lock.acquire()));
      const won = results.flatMap((result, index) => (result.status === 'fulfilled' ? [newcomers[index]?.owner] : []));
      expect(won).toHaveLength(1);
      for (const result of results)
        if (result.status === 'rejected') expect(result.reason).toMatchObject({ code: 'RUN_LOCKED' });
      expect(await ownerOf(fs)).toBe(won[0]);
      expect((await fs.list('run'))?.filter((name) => name.includes('takeover'))).toEqual([]);
    });

    it('does not take over a lock whose holder beat after the newcomer judged it stale', async () => {
      const fs = fresh();
      const clockA = createManualClock(START);
      const a = new RunLock(fs, LOCK, clockA, 'a', TIMEOUT);
      await a.acquire();
      let open = () => {};
      let reached = () => {};
      const gate = new Promise<void>((resolve) => {
        open = resolve;
      });
      const atGate = new Promise<void>((resolve) => {
        reached = resolve;
      });
      const b = new RunLock(
        pausedGuards(fs, gate, reached),
        LOCK,
        createManualClock(START + TIMEOUT + 1),
        'b',
        TIMEOUT,
      );
      const taking = b.acquire();
      await atGate;
      clockA.advance(TIMEOUT + 1);
      await a.heartbeat(true);
      open();
      await expect(taking).rejects.toMatchObject({ code: 'RUN_LOCKED' });
      await a.writer.writeText('run/state.json', '{"by":"a"}');
      expect(await ownerOf(fs)).toBe('a');
    });
  });
}
