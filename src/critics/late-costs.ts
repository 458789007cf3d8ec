// An execution's late costs: what a generator or critic reported after the pipeline had stopped waiting for it is
// written to `<execution>/spend-pending/` by the process that still watched the call, and counted by the next
// `run()` or `step()` of the execution, under its lock.

import type { Clock } from '../ports/clock.js';
import type { FileSystem } from '../ports/file-system.js';
import { describeThrown } from '../runtime/host-call.js';
import type { OutboxCommit } from '../runtime/outbox.js';
import {
  containPendingCostFolder,
  readPendingCosts,
  removeCountedCosts,
  writePendingCost,
} from '../runtime/pending-costs.js';
import type { ExecutionState } from './contracts/execution-state.js';
import { type ExecutionLateCost, executionLateCostSchema, type PendingExecutionCost } from './contracts/late-cost.js';
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
  /** The execution's id, kept in each record: a folder shared with another execution (a symlink) counts none of its costs. */
  readonly executionId: string;
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
  const pending = (await readPendingCosts(fs, folder, executionLateCostSchema)).map((file) =>
    ofExecution(file, state.execution_id),
  );
  if (pending.length === 0 && state.late_costs === undefined) return state;
  const ts = new Date(deps.clock.now()).toISOString();
  const fold = foldExecutionLateCosts(state, pending, ts, deps.config);
  const current = fold.state === state ? state : await commit.commit(fold.state);
  return removeCountedCosts(deps, current, fold.remove, (counted, removed) =>
    forgetRemovedExecutionCosts(counted, removed, ts),
  );
}

// A pending file written for another execution (its folder shared through a symlink) is not this execution's cost:
// reported once and kept, like a damaged file.
function ofExecution(file: PendingExecutionCost, executionId: string): PendingExecutionCost {
  if (!('record' in file) || file.record.execution_id === executionId) return file;
  return { name: file.name, path: file.path, problem: `written for execution ${file.record.execution_id}` };
}

/**
 * Writes the cost of a call the pipeline did not record (it stopped waiting
 * for it, or lost the execution's lock before recording it; a cost above 0
 * only) as a pending file of the execution, without the lock (a unique name
 * clashes with no writer). A write that fails is reported on the console,
 * naming the cost: nothing else will ever see it. Never rejects.
 *
 * @internal
 */
export async function recordLateCost(target: LateCostTarget, call: LateCall, costUsd: number): Promise<void> {
  if (!(costUsd > 0)) return;
  try {
    const record = {
      execution_id: target.executionId,
      ...call,
      cost_usd: costUsd,
      settled_at: new Date(target.clock.now()).toISOString(),
    };
    const folder = await containPendingCostFolder(target.fs, target.dir);
    const label = `${call.stage}-${call.attempt}-${call.call}`;
    const file = { label, unique: globalThis.crypto.randomUUID() };
    await writePendingCost(target.fs, folder, file, record, executionLateCostSchema);
  } catch (error) {
    console.warn(
      `goal-loop: the ${call.stage} ${call.call === 'generate' ? 'generator' : 'critic'} (attempt ${call.attempt}) ` +
        `reported $${costUsd} its pipeline did not record (it stopped waiting, or lost the execution's lock), and it ` +
        `could not be written to ${target.dir}/spend-pending (${describeThrown(error)}); add it to the execution's ` +
        'spend by hand.',
    );
  }
}
