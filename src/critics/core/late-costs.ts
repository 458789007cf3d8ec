import { forgetRemovedCosts, sortPendingCosts, withLateCostMemory } from '../../kit/late-cost-memory.js';
import { sumUsd } from '../../kit/usd.js';
import type { ExecutionState } from '../contracts/execution-state.js';
import type { PendingExecutionCost } from '../contracts/late-cost.js';
import { applyAction, emit, type RecordDraft, type Transition } from './apply-action.js';
import { effectOf, type MachineConfig } from './machine.js';

/** A fold of an execution's pending late costs: the next record with its trace records, and the files to remove after it. @internal */
export interface ExecutionCostFold extends Transition {
  /** The files whose cost the record now holds (new and earlier ones): safe to remove once it is committed. */
  readonly remove: readonly PendingExecutionCost[];
}

/** Adds the pending late costs the record has not counted yet to the spend, once each, with a `late_cost` trace record per file. @internal */
export function foldExecutionLateCosts(
  state: ExecutionState,
  pending: readonly PendingExecutionCost[],
  ts: string,
  config: MachineConfig,
): ExecutionCostFold {
  const { fresh, newlyDamaged, remove, memory } = sortPendingCosts(state.late_costs, pending);
  const drafts: RecordDraft[] = [
    ...fresh.map(({ record, path }) => ({
      kind: 'late_cost' as const,
      stage: record.stage,
      attempt: record.attempt,
      call: record.call,
      costUsd: record.cost_usd,
      path,
    })),
    ...newlyDamaged.map((file) => ({
      kind: 'late_cost_unreadable' as const,
      path: file.path,
      reason: 'problem' in file ? file.problem : '',
    })),
  ];
  const remembered = withLateCostMemory(state, memory);
  if (drafts.length === 0)
    return { ...(remembered === state ? { state, records: [] } : emit(remembered, ts, [])), remove };
  const spentUsd = sumUsd(
    fresh.map((file) => file.record.cost_usd),
    state.spent_usd,
  );
  const counted = { ...remembered, spent_usd: spentUsd };
  const budget = config.budgetUsd;
  if (budget === undefined || spentUsd < budget || effectOf(counted, config).kind !== 'generate')
    return { ...emit(counted, ts, drafts), remove };
  const ids = config.stages.map((stage) => stage.id);
  const detail = `spent $${spentUsd} of the $${budget} budget (late costs counted)`;
  const stopped = applyAction(counted, ids, { kind: 'escalate', reason: 'budget', detail }, []);
  return { ...emit(stopped.state, ts, stopped.finished === null ? drafts : [...drafts, stopped.finished]), remove };
}

/** The record after the shell removed counted files: it forgets them (a name is remembered only while its file may still be there). @internal */
export function forgetRemovedExecutionCosts(
  state: ExecutionState,
  removed: readonly PendingExecutionCost[],
  ts: string,
): ExecutionState {
  const memory = forgetRemovedCosts(
    state.late_costs,
    removed.map((file) => file.name),
  );
  return memory === state.late_costs ? state : emit(withLateCostMemory(state, memory), ts, []).state;
}
