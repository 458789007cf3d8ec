import { isGoalLoopError } from '../errors.js';
import type { Clock } from '../ports/clock.js';
import type { FileSystem } from '../ports/file-system.js';
import type { StageOutcome } from '../ports/stage-runner.js';
import { writeLateCost } from './late-cost-files.js';

/** Where a late cost goes: the run's pending late costs folder, and the stage call it belongs to. @internal */
export interface LateCostTarget {
  readonly fs: FileSystem;
  /** The contained `spend-pending` folder of the run. */
  readonly folder: string;
  readonly stage: string;
  readonly iteration: number;
  readonly clock: Clock;
}

/**
 * Keeps watching a stage runner the loop stopped waiting for (an abort, a
 * lost lock, a time limit past its grace). When it settles with a cost above
 * 0, the cost is written to the run's pending late costs folder as a file of
 * its own, and the loop that next holds the lock adds it to the spend. The
 * write takes no lock and passes no fence on purpose: by then this process
 * may have released or lost the lock, and a unique file clashes with no
 * writer, so it is the one thing a loop writes after losing its lock. Nothing
 * but the runner's own promise is held (no timer keeps the process alive);
 * if the process ends first the cost is not recorded. A write that fails is
 * reported on the console, naming the cost.
 *
 * @internal
 */
export function watchLateCost(late: Promise<StageOutcome>, target: LateCostTarget): void {
  late
    .then((outcome) => recordLateCost(outcome.costUsd ?? 0, target))
    .catch((error: unknown) => warnUnrecorded(target, null, error));
}

/**
 * A stage's cost the loop holds but has not committed yet: from the stage's
 * return until a record holding it is saved.
 *
 * @internal
 */
export interface UncommittedCost {
  readonly stage: string;
  readonly iteration: number;
  readonly costUsd: number;
}

/**
 * Writes a stage's cost that its loop could not commit because it lost the
 * run's lock (`RUN_LOCKED`: the fence refused the record that held it, or the
 * fold before it) to the pending late costs folder, like a late cost, so the
 * loop that holds the lock now or next counts it. The stage returned in time,
 * but its loop stalled past the lock timeout (a runner that blocked the event
 * loop, so no heartbeat ran) and another loop took the run over. Any other
 * error, or no cost, writes nothing: the caller rethrows either way.
 *
 * @internal
 */
export async function parkUncommittedCost(
  error: unknown,
  cost: UncommittedCost | null,
  target: Omit<LateCostTarget, 'stage' | 'iteration'>,
): Promise<void> {
  if (cost === null || !isGoalLoopError(error, 'RUN_LOCKED')) return;
  await recordLateCost(cost.costUsd, { ...target, stage: cost.stage, iteration: cost.iteration });
}

// Writes a cost above 0 as a pending file; a write that fails is reported, never thrown.
async function recordLateCost(cost: number, target: LateCostTarget): Promise<void> {
  if (!(cost > 0)) return;
  const record = {
    stage: target.stage,
    iteration: target.iteration,
    cost_usd: cost,
    settled_at: new Date(target.clock.now()).toISOString(),
  };
  try {
    await writeLateCost(target.fs, target.folder, record, globalThis.crypto.randomUUID());
  } catch (error) {
    warnUnrecorded(target, cost, error);
  }
}

// The one report left when a late cost cannot be written: nothing else will ever see it.
function warnUnrecorded(target: LateCostTarget, cost: number | null, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  const what = cost === null ? 'a cost' : `$${cost}`;
  console.warn(
    `goal-loop: stage ${target.stage} (iteration ${target.iteration}) reported ${what} its loop did not record ` +
      `(it stopped waiting, or lost the run's lock), and it could not be written to ${target.folder} (${message}); ` +
      `add it to the run's spend by hand.`,
  );
}
