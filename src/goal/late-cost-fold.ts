import { removeCountedCosts } from '../runtime/pending-costs.js';
import type { LoopState } from './contracts/loop-state.js';
import { foldLateCosts, forgetRemovedLateCosts } from './core/late-costs.js';
import { readLateCosts } from './late-cost-files.js';
import type { SessionDeps } from './session-deps.js';
import { raiseRecordedSpend, readRecordedSpend } from './spend.js';

/**
 * Folds the run's pending late costs into its record, under the lock: reads
 * the `spend-pending` folder, lets {@link foldLateCosts} decide, commits the
 * record with its events and raises metrics.json to the new spend, then
 * removes the counted files and commits that they are gone. Each step is
 * fenced, so a loop that lost its lock folds nothing. Idempotent across a
 * crash at any point: a file is counted by the commit that names it, and
 * removed only after. With nothing pending it only lists the folder.
 *
 * @internal
 */
export async function foldPendingLateCosts(
  deps: Pick<SessionDeps, 'fs' | 'paths' | 'lateCostFolder' | 'commit' | 'fence' | 'clock'>,
  state: LoopState,
): Promise<LoopState> {
  const { fs, paths, commit } = deps;
  const pending = await readLateCosts(fs, deps.lateCostFolder);
  if (pending.length === 0 && state.late_costs === undefined) return state;
  const ts = new Date(deps.clock.now()).toISOString();
  const fold = foldLateCosts(state, { pending, spentUsd: await readRecordedSpend(fs, paths.metrics), ts });
  let current = state;
  if (fold.state !== state) {
    current = await commit.commit(fold.state);
    // Under the commit's fence check: part of the same durable point.
    if (current.spent_usd !== state.spent_usd) await raiseRecordedSpend(fs, paths.metrics, current.spent_usd);
  }
  return removeCountedCosts(deps, current, fold.remove, (counted, removed) =>
    forgetRemovedLateCosts(counted, removed, ts),
  );
}
