// A generator's or critic's cost reported after the pipeline stopped waiting for it: written to the execution's
// spend-pending/ by the process that still watched the call, counted by the execution's next holder.
import type { Clock } from '../ports/clock.js';
import type { FileSystem } from '../ports/file-system.js';
import type { OutboxCommit } from '../runtime/outbox.js';
import { containPendingCostFolder, foldPendingCosts, recordPendingCost } from '../runtime/pending-costs.js';
import type { ExecutionState } from './contracts/execution-state.js';
import { type ExecutionLateCost, executionLateCostSchema, type PendingExecutionCost } from './contracts/late-cost.js';
import type { TraceRecord } from './contracts/trace.js';
import { foldExecutionLateCosts, forgetRemovedExecutionCosts } from './core/late-costs.js';
import type { MachineConfig } from './core/machine.js';

/** The call a late cost belongs to. @internal */
export type LateCall = Pick<ExecutionLateCost, 'stage' | 'attempt' | 'call'>;

/** Where an execution's late costs are written. @internal */
export interface LateCostTarget {
  readonly fs: FileSystem;
  /** The execution's folder. */
  readonly dir: string;
  /** Kept in each record: a folder shared with another execution (a symlink) counts none of its costs. */
  readonly executionId: string;
  readonly clock: Clock;
}

/** What folding an execution's late costs needs. @internal */
export interface LateCostDeps {
  readonly fs: FileSystem;
  readonly dir: string;
  readonly commit: OutboxCommit<ExecutionState, TraceRecord>;
  readonly fence: () => Promise<void>;
  readonly clock: Clock;
  readonly config: MachineConfig;
}

/** Counts the execution's pending late costs, under its lock (see foldPendingCosts). @internal */
export async function foldLateCosts(deps: LateCostDeps, state: ExecutionState): Promise<ExecutionState> {
  return foldPendingCosts(deps, state, {
    folder: await containPendingCostFolder(deps.fs, deps.dir),
    schema: executionLateCostSchema,
    decide: async (pending, ts) => {
      const own = pending.map((file) => ofExecution(file, state.execution_id));
      return foldExecutionLateCosts(state, own, ts, deps.config);
    },
    forget: forgetRemovedExecutionCosts,
  });
}

// A file written for another execution (its folder shared through a symlink) is reported once and kept.
function ofExecution(file: PendingExecutionCost, executionId: string): PendingExecutionCost {
  if (!('record' in file) || file.record.execution_id === executionId) return file;
  return { name: file.name, path: file.path, problem: `written for execution ${file.record.execution_id}` };
}

/** Writes the cost of a call the pipeline did not record as a pending file of the execution; never rejects. @internal */
export function recordLateCost(target: LateCostTarget, call: LateCall, costUsd: number): Promise<void> {
  const settled = new Date(target.clock.now()).toISOString();
  const record = { execution_id: target.executionId, ...call, cost_usd: costUsd, settled_at: settled };
  const who = `the ${call.stage} ${call.call === 'generate' ? 'generator' : 'critic'} (attempt ${call.attempt})`;
  return recordPendingCost(
    { fs: target.fs, folder: () => containPendingCostFolder(target.fs, target.dir) },
    `${call.stage}-${call.attempt}-${call.call}`,
    record,
    executionLateCostSchema,
    (why) =>
      `${who} reported $${costUsd} its pipeline did not record (it stopped waiting, or lost the execution's lock), ` +
      `and it could not be written to ${target.dir}/spend-pending (${why}); add it to the execution's spend by hand.`,
  );
}
