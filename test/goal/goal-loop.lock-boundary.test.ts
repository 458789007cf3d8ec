import { describe, expect, it } from 'vitest';
import { GoalLoop, type LoopEvent, type StageOutcome } from '../../src/index.js';
import { runPaths } from '../../src/pipeline/run-paths.js';
import { createManualClock, createMemoryFileSystem, createScriptedStageRunner } from '../../src/testing.js';

// The stale-lock boundary (SPEC §5.3: "a lock whose heartbeat is older than its timeout is taken over"): a lock whose
// heartbeat is exactly the timeout old is still held (RUN_LOCKED); one millisecond older, it is stale and taken over.
// Two GoalLoops share one memory filesystem; each has its own manual clock, so the holder's heartbeat never moves
// while the others look at the lock from a chosen moment.

const RUN = '.goal-loop/runs/r-lock';
const PATHS = runPaths(RUN);
const TIMEOUT_MS = 10_000;
const START = Date.UTC(2025, 0, 1);
const passed: StageOutcome = { status: 'passed' };

function project() {
  const fs = createMemoryFileSystem();
  const loopAt = (now: number, runner = createScriptedStageRunner({ a: passed, b: passed }), signal?: AbortSignal) => {
    const events: LoopEvent[] = [];
    const loop = new GoalLoop({
      fs,
      runDir: RUN,
      stages: ['a', 'b'],
      runner,
      clock: createManualClock(now),
      lockTimeoutMs: TIMEOUT_MS,
      onEvent: (event) => events.push(event),
      signal,
    });
    return { loop, events };
  };
  // A holder that took the lock at START and is stuck in stage a (its clock never moves, so it never beats again).
  const holder = async () => {
    const controller = new AbortController();
    let entered!: () => void;
    const inStage = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const stuck = createScriptedStageRunner({
      a: () => {
        entered();
        return new Promise<StageOutcome>(() => undefined);
      },
      b: passed,
    });
    const running = loopAt(START, stuck, controller.signal).loop.run();
    await inStage;
    const lock = (await fs.readText(PATHS.lock)) ?? '';
    // Ends the stuck holder (its result no longer matters once another loop has the run).
    const stop = async () => {
      controller.abort(new Error('test over'));
      await running.catch(() => undefined);
    };
    return { lock, stop };
  };
  return { fs, loopAt, holder };
}

describe('the stale-lock boundary', () => {
  it('a lock whose heartbeat is exactly lockTimeoutMs old is held: RUN_LOCKED, the lock untouched', async () => {
    const p = project();
    const held = await p.holder();
    expect(JSON.parse(held.lock)).toMatchObject({ heartbeat_at: START, timeout_ms: TIMEOUT_MS });

    const second = p.loopAt(START + TIMEOUT_MS);
    await expect(second.loop.run()).rejects.toMatchObject({ code: 'RUN_LOCKED' });
    await expect(second.loop.step()).rejects.toMatchObject({ code: 'RUN_LOCKED' });
    expect(second.events).toEqual([]);
    expect(await p.fs.readText(PATHS.lock)).toBe(held.lock);
    await held.stop();
  });

  it('one millisecond older, it is stale: taken over, logged with its age, and the run completes', async () => {
    const p = project();
    const held = await p.holder();
    const previousOwner = (JSON.parse(held.lock) as { owner: string }).owner;

    const second = p.loopAt(START + TIMEOUT_MS + 1);
    const result = await second.loop.run();
    expect(result).toMatchObject({ stoppedOn: 'complete', iteration: 1 });
    expect(second.events[0]).toMatchObject({
      type: 'lock_taken_over',
      previous_owner: previousOwner,
      heartbeat_age_ms: TIMEOUT_MS + 1,
    });
    expect(second.events.map((event) => event.type)).toContain('loop_resumed');
    expect(await p.fs.readText(PATHS.lock)).toBeNull();
    await held.stop();
  });
});
