import { describe, expect, it } from 'vitest';
import { GoalLoop } from '../../src/goal/goal-loop.js';
import type { StageRunner } from '../../src/goal/stage-runner.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem, type MemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { expectStop, PATHS, RUN, readEvents, readState, START } from './helpers.js';
import { LATE_FOLDER, lateFiles } from './late-cost-helpers.js';

// The lock is lost between the two halves of a commit: the record holding a stage's cost is saved (its fence
// passed), then delivering its events is refused (its fence fails). The saved record already counts the cost, so
// nothing may go to spend-pending/: a pending file there would be counted a second time by the next holder.

const TIMEOUT_MS = 9_000;

// The run's filesystem, on which another loop takes the lock over right after the first record holding a cost is
// written: the lock file then names that loop, with a heartbeat already stale for a loop started later.
function takenOverAfterCostSaved(fs: MemoryFileSystem): FileSystem {
  let takenOver = false;
  return new Proxy(fs, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (key !== 'writeText' || typeof value !== 'function') return value;
      return async (path: string, text: string) => {
        await (value as FileSystem['writeText']).call(target, path, text);
        if (takenOver || path !== PATHS.state || !((JSON.parse(text) as { spent_usd: number }).spent_usd > 0)) return;
        takenOver = true;
        const lock = JSON.parse((await target.readText(PATHS.lock)) ?? '{}') as Record<string, unknown>;
        await target.writeText(PATHS.lock, JSON.stringify({ ...lock, owner: 'other', token: 'other-token' }));
      };
    },
  });
}

const loopOn = (fs: FileSystem, runner: StageRunner, at: number) =>
  new GoalLoop({ fs, runDir: RUN, stages: ['a'], runner, clock: createManualClock(at), lockTimeoutMs: TIMEOUT_MS });

describe('a lock lost after the record holding a stage cost was saved, before its events were delivered', () => {
  it('parks nothing: the next holder delivers the events and counts the $5 once', async () => {
    const fs = createMemoryFileSystem();
    const paid: StageRunner = { run: async () => ({ status: 'passed', costUsd: 5 }) };
    await expect(loopOn(takenOverAfterCostSaved(fs), paid, START).run()).rejects.toMatchObject({
      code: 'RUN_LOCKED',
    });
    expect((await readState(fs))?.spent_usd).toBe(5);
    expect(await fs.list(LATE_FOLDER)).toBeNull();

    const next = await loopOn(fs, { run: async () => ({ status: 'passed' }) }, START + TIMEOUT_MS + 1).run();
    expectStop(next, 'complete', 0);
    expect(next.spentUsd).toBe(5);
    expect(JSON.parse((await fs.readText(PATHS.metrics)) ?? '{}').cumulative_cost_usd).toBe(5);
    expect(await lateFiles(fs)).toEqual([]);
    const events = await readEvents(fs);
    expect(events.filter((event) => event.type === 'late_cost_recorded')).toEqual([]);
    expect(events.filter((event) => event.type === 'stage_completed')).toEqual([
      expect.objectContaining({ stage: 'a', cost_usd: 5 }),
    ]);
  });
});
