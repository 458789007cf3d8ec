// A stage's cost its loop did not record (it stopped waiting, or lost the lock): written to the run's spend-pending/
// without the lock, folded into the spend by the loop that next holds it.
import { isGoalLoopError } from '../errors.js';
import { sumUsd } from '../kit/usd.js';
import type { Clock } from '../ports/clock.js';
import type { FileSystem } from '../ports/file-system.js';
import type { StageOutcome } from '../ports/stage-runner.js';
import {
  containPendingCostFolder,
  foldPendingCosts,
  readPendingCosts,
  recordPendingCost,
} from '../runtime/pending-costs.js';
import { lateCostRecordSchema } from './contracts/late-cost.js';
import type { LoopState } from './contracts/loop-state.js';
import { foldLateCosts, forgetRemovedLateCosts } from './core/late-costs.js';
import type { SessionDeps } from './session-deps.js';
import { raiseRecordedSpend, readRecordedSpend } from './spend.js';

/** Where a late cost goes: the run's contained pending folder, and the stage call it belongs to. @internal */
export interface LateCostTarget {
  readonly fs: FileSystem;
  readonly folder: string;
  readonly stage: string;
  readonly iteration: number;
  readonly clock: Clock;
}

/** A stage's cost the loop holds but has not committed yet. @internal */
export interface UncommittedCost {
  readonly stage: string;
  readonly iteration: number;
  readonly costUsd: number;
}

/** Folds the run's pending late costs into its record under the lock, raising metrics.json to the new spend. @internal */
export function foldPendingLateCosts(
  deps: Pick<SessionDeps, 'fs' | 'paths' | 'lateCostFolder' | 'commit' | 'fence' | 'clock'>,
  state: LoopState,
): Promise<LoopState> {
  const { fs, paths } = deps;
  return foldPendingCosts(deps, state, {
    folder: deps.lateCostFolder,
    schema: lateCostRecordSchema,
    decide: async (pending, ts) =>
      foldLateCosts(state, { pending, spentUsd: await readRecordedSpend(fs, paths.metrics), ts }),
    counted: async (current, before) => {
      if (current.spent_usd === before.spent_usd) return;
      // Under the commit's fence check: part of the same durable point.
      await raiseRecordedSpend(fs, paths.metrics, current.spent_usd);
    },
    forget: forgetRemovedLateCosts,
  });
}

/**
 * Keeps watching a stage runner the loop stopped waiting for; a cost it reports later is written as a pending file
 * (no lock, no fence: by then this process may have lost the lock). @internal
 */
export function watchLateCost(late: Promise<StageOutcome>, target: LateCostTarget): void {
  late.then(
    (outcome) => recordLateCost(outcome.costUsd ?? 0, target),
    (error: unknown) =>
      console.warn(
        `goal-loop: ${unrecorded(target, 'a cost')(String(error instanceof Error ? error.message : error))}`,
      ),
  );
}

/** Parks a stage's cost whose record the lost lock refused (`RUN_LOCKED`) as a pending file; anything else writes nothing. @internal */
export async function parkUncommittedCost(
  error: unknown,
  cost: UncommittedCost | null,
  target: Omit<LateCostTarget, 'stage' | 'iteration'>,
): Promise<void> {
  if (cost === null || !isGoalLoopError(error, 'RUN_LOCKED')) return;
  await recordLateCost(cost.costUsd, { ...target, stage: cost.stage, iteration: cost.iteration });
}

/** The sum of the pending late costs the record has not counted yet (names outside `folded`). Reads only. @internal */
export async function pendingLateCostUsd(
  fs: FileSystem,
  runDir: string,
  folded: readonly string[] = [],
): Promise<number> {
  const counted = new Set(folded);
  const pending = await readPendingCosts(fs, await containPendingCostFolder(fs, runDir), lateCostRecordSchema);
  return sumUsd(pending.map((file) => ('record' in file && !counted.has(file.name) ? file.record.cost_usd : 0)));
}

function recordLateCost(cost: number, target: LateCostTarget): Promise<void> {
  const { stage, iteration } = target;
  const record = { stage, iteration, cost_usd: cost, settled_at: new Date(target.clock.now()).toISOString() };
  // The stage id is free text: its first 64 characters start the file's name.
  const label = `${iteration}-${stage.slice(0, 64)}`;
  const to = { fs: target.fs, folder: async () => target.folder };
  return recordPendingCost(to, label, record, lateCostRecordSchema, unrecorded(target, `$${cost}`));
}

// The one report left when a late cost cannot be written: nothing else will ever see it.
const unrecorded =
  (target: LateCostTarget, what: string) =>
  (why: string): string =>
    `stage ${target.stage} (iteration ${target.iteration}) reported ${what} its loop did not record ` +
    `(it stopped waiting, or lost the run's lock), and it could not be written to ${target.folder} (${why}); ` +
    `add it to the run's spend by hand.`;
