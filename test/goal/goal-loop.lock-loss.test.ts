import { describe, expect, it } from 'vitest';
import { GoalLoop, type LoopEvent, type StageOutcome } from '../../src/index.js';
import { runPaths } from '../../src/pipeline/run-paths.js';
import { createManualClock, createMemoryFileSystem, createScriptedStageRunner } from '../../src/testing.js';

// A loop that loses its run lock while a stage runs must stop that stage: the stage's signal fires as soon as the
// heartbeat finds another loop holding the lock, so the two loops never run the same stage side by side for long.

const RUN = '.goal-loop/runs/r-lost';
const TIMEOUT_MS = 9_000;
const START = Date.UTC(2025, 0, 1);
const passed: StageOutcome = { status: 'passed' };

describe('losing the run lock during a stage', () => {
  it("aborts the stage's signal once the heartbeat finds the lock taken over, and the loop ends RUN_LOCKED", async () => {
    const fs = createMemoryFileSystem();
    const clock = createManualClock(START);
    let entered!: () => void;
    const inStage = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let stageSignal: AbortSignal | undefined;
    // A stage that honours its signal: it ends only when aborted.
    const slow = createScriptedStageRunner({
      a: (context) => {
        stageSignal = context.signal;
        entered();
        return new Promise<StageOutcome>((resolve) =>
          context.signal.addEventListener('abort', () => resolve({ status: 'failed', detail: 'aborted' })),
        );
      },
      b: passed,
    });
    const events: LoopEvent[] = [];
    const holder = new GoalLoop({
      fs,
      runDir: RUN,
      stages: ['a', 'b'],
      runner: slow,
      clock,
      lockTimeoutMs: TIMEOUT_MS,
      onEvent: (event) => events.push(event),
    });
    const running = holder.run();
    const outcome = running.then(
      () => 'resolved',
      (error: { code?: string }) => error.code,
    );
    await inStage;
    const heldLock = await fs.readText(runPaths(RUN).lock);

    // Another loop, whose clock says the holder's heartbeat is stale, takes the run over; it blocks in stage a too.
    const taker = new GoalLoop({
      fs,
      runDir: RUN,
      stages: ['a', 'b'],
      runner: createScriptedStageRunner({ a: () => new Promise<StageOutcome>(() => undefined), b: passed }),
      clock: createManualClock(START + TIMEOUT_MS + 1),
      lockTimeoutMs: TIMEOUT_MS,
    });
    void taker.run().catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await fs.readText(runPaths(RUN).lock)).not.toBe(heldLock);
    expect(stageSignal?.aborted).toBe(false);

    // The holder's next heartbeat finds the lock gone: its stage is aborted and its run ends RUN_LOCKED.
    clock.advance(TIMEOUT_MS);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stageSignal?.aborted).toBe(true);
    expect(await outcome).toBe('RUN_LOCKED');
  });
});
