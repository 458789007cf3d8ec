// An execution's late costs: what a generator or critic reported after the pipeline had stopped waiting for it is
// written to `<execution>/spend-pending/` by the process that still watched the call, and counted by the next
// `run()` or `step()` of the execution, under its lock.
import type { OutboxCommit } from '../persist/outbox.js';
import { containPendingCostFolder, readPendingCosts, writePendingCost } from '../persist/pending-costs.js';
import type { Clock } from '../ports/clock.js';
import type { FileSystem } from '../ports/file-system.js';
import type { ExecutionState } from './contracts/execution-state.js';
import { type ExecutionLateCost, executionLateCostSchema } from './contracts/late-cost.js';
import type { TraceRecord } from './contracts/trace.js';
import { foldExecutionLateCosts, forgetRemovedExecutionCosts } from './core/late-costs.js';
import type { MachineConfig } from './core/machine.js';

/** The call a late cost belongs to. @internal */
export type LateCall = Pick<ExecutionLateCost, 'stage' | 'attempt' | 'call'>;

/** Where an execution's late costs are written: its folder, through the pipeline's filesystem and clock. @internal */
export interface LateCostTarget {
  readonly fs: FileSystem;
  /** The execution's folder. */
  readonly dir: string;
  readonly clock: Clock;
}

/** What folding an execution's late costs needs. @internal */
export interface LateCostDeps {
  readonly fs: FileSystem;
  /** The execution's folder. */
  readonly dir: string;
  readonly commit: OutboxCommit<ExecutionState, TraceRecord>;
  /** Throws `RUN_LOCKED` when the execution's lock is no longer this call's. */
  readonly fence: () => Promise<void>;
  readonly clock: Clock;
  readonly config: MachineConfig;
}

/**
 * Counts the execution's pending late costs, under its lock: reads the
 * folder, lets {@link foldExecutionLateCosts} decide, commits the record with
 * its trace records, then removes the counted files (fenced) and commits
 * that they are gone. Idempotent across a crash at any point: a file is
 * counted by the commit that names it, and removed only after. With nothing
 * pending it only lists the folder.
 *
 * @internal
 */
export async function foldLateCosts(deps: LateCostDeps, state: ExecutionState): Promise<ExecutionState> {
  const { fs, commit } = deps;
  const folder = await containPendingCostFolder(fs, deps.dir);
  const pending = await readPendingCosts(fs, folder, executionLateCostSchema);
  if (pending.length === 0 && state.late_costs === undefined) return state;
  const ts = new Date(deps.clock.now()).toISOString();
  const fold = foldExecutionLateCosts(state, pending, ts, deps.config);
  const current = fold.state === state ? state : await commit.commit(fold.state);
  if (fold.remove.length === 0) return current;
  await deps.fence();
  for (const file of fold.remove) await fs.remove(file.path);
  const forgotten = forgetRemovedExecutionCosts(current, fold.remove, ts);
  return forgotten === current ? current : commit.commit(forgotten);
}

/**
 * Writes the cost a call reported after the pipeline stopped waiting for it
 * (a cost above 0 only) as a pending file of the execution, without the lock
 * (a unique name clashes with no writer). A write that fails is reported on
 * the console, naming the cost: nothing else will ever see it. Never throws.
 *
 * @internal
 */
export async function recordLateCost(target: LateCostTarget, call: LateCall, costUsd: number): Promise<void> {
  if (!(costUsd > 0)) return;
  const record = { ...call, cost_usd: costUsd, settled_at: new Date(target.clock.now()).toISOString() };
  try {
    const folder = await containPendingCostFolder(target.fs, target.dir);
    const label = `${call.stage}-${call.attempt}-${call.call}`;
    await writePendingCost(
      target.fs,
      folder,
      { label, unique: globalThis.crypto.randomUUID() },
      record,
      executionLateCostSchema,
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.warn(
      `goal-loop: the ${call.stage} ${call.call === 'generate' ? 'generator' : 'critic'} (attempt ${call.attempt}) ` +
        `reported $${costUsd} after its pipeline stopped waiting for it, and it could not be written to ` +
        `${target.dir}/spend-pending (${message}); add it to the execution's spend by hand.`,
    );
  }
}
