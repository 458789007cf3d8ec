import { describe, expect, it } from 'vitest';
import { GoalLoop } from '../../src/goal/goal-loop.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import { createFakeCommandRunner } from '../../src/testing/fake-command-runner.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import {
  allPass,
  command,
  deferred,
  expectStop,
  goalJson,
  harness,
  PATHS,
  RUN,
  readEvents,
  runFile,
  STAGES,
  START,
  typesOf,
} from './helpers.js';

// A run shared with other writers: loops racing for the same stale lock, a thief taking the lock over mid-evaluation,
// another tool's line in events.jsonl.

const staleLock = (owner: string) =>
  JSON.stringify({ owner, pid: 1, heartbeat_at: START - 600_001, heartbeat_iso: '', timeout_ms: 600_000 });

// A memory filesystem whose every call waits a macrotask, so two loops interleave at every step.
function slowFileSystem(files: Record<string, string>): FileSystem {
  const fs = createMemoryFileSystem({ files });
  const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
  return new Proxy(fs, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        await tick();
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

describe('the run lock under contention', () => {
  it('two loops taking over the same stale lock: exactly one runs, the other gets RUN_LOCKED', async () => {
    for (let round = 0; round < 5; round++) {
      const fs = slowFileSystem({ [PATHS.lock]: staleLock('ghost') });
      const h = harness();
      const make = () => new GoalLoop({ fs, runDir: RUN, stages: [...STAGES], runner: allPass(), clock: h.clock });
      const outcomes = await Promise.allSettled([make().run(), make().run()]);
      const fulfilled = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      const rejected = outcomes.flatMap((outcome) =>
        outcome.status === 'rejected' ? [outcome.reason as unknown] : [],
      );
      expect(fulfilled).toHaveLength(1);
      expect(rejected).toEqual([expect.objectContaining({ code: 'RUN_LOCKED' })]);
    }
  });

  it('a loop whose lock went stale during a long evaluation and was taken over stops with RUN_LOCKED', async () => {
    const h = harness({ [runFile('goal.json')]: goalJson([command('slow', 'slow-check')]) });
    const started = deferred();
    const finish = deferred();
    const commands = createFakeCommandRunner({
      'slow-check': async () => {
        started.resolve();
        await finish.promise;
        return { exitCode: 0 };
      },
    });
    const first = h.loop(allPass(), { commands, lockTimeoutMs: 1_000 }).run();
    await started.promise;
    // The first loop's heartbeat is due every 333 ms; a thief takes the lock over while the clock jumps past the timeout.
    await h.fs.writeText(
      PATHS.lock,
      JSON.stringify({ owner: 'thief', pid: 2, heartbeat_at: START + 5_000, heartbeat_iso: '', timeout_ms: 60_000 }),
    );
    h.clock.advance(5_000);
    finish.resolve();
    await expect(first).rejects.toMatchObject({ code: 'RUN_LOCKED' });
    expect(typesOf(await readEvents(h.fs))).not.toContain('loop_completed');
  });
});

describe('events.jsonl shared with another writer', () => {
  it('a foreign line without seq neither duplicates events nor replays the old stop', async () => {
    const h = harness();
    expectStop(await h.loop(allPass()).run(), 'complete', 0);
    await h.fs.appendText(PATHS.events, `${JSON.stringify({ ts: 'x', type: 'note', by: 'another tool' })}\n`);
    const second = await h.loop(allPass()).run();
    expect(second).toMatchObject({ stoppedOn: 'complete', iteration: 2 });
    const lines = ((await h.fs.readText(PATHS.events)) ?? '')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { seq?: number; type: string });
    const seqs = lines.flatMap((event) => (event.seq === undefined ? [] : [event.seq]));
    expect(seqs).toEqual(seqs.map((_, index) => index));
    expect(lines.filter((event) => event.type === 'loop_completed')).toHaveLength(2);
  });
});
