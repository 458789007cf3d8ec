import { forgetRemovedCosts, sortPendingCosts, withLateCostMemory } from '../../kit/late-cost-memory.js';
import { sumUsd } from '../../kit/usd.js';
import type { PendingLateCost } from '../contracts/late-cost.js';
import type { LoopState } from '../contracts/loop-state.js';
import { draft, emit, type Transition, withOutbox } from './emit.js';

/** A fold of the pending late costs: the next record with its events, and the files the shell removes after it. @internal */
export interface LateCostFold extends Transition {
  /** The files whose cost the record now holds (new and earlier ones): safe to remove once it is committed. */
  readonly remove: readonly PendingLateCost[];
}

/** Adds the pending late costs the record has not counted yet to the spend, once each. @internal */
export function foldLateCosts(
  state: LoopState,
  input: { readonly pending: readonly PendingLateCost[]; readonly spentUsd: number; readonly ts: string },
): LateCostFold {
  const { fresh, newlyDamaged, remove, memory } = sortPendingCosts(state.late_costs, input.pending);
  const drafts = [
    ...fresh.map(({ record, path }) =>
      draft('late_cost_recorded', {
        stage: record.stage,
        stage_iteration: record.iteration,
        cost_usd: record.cost_usd,
        path,
      }),
    ),
    ...newlyDamaged.map((file) =>
      draft('late_cost_unreadable', { path: file.path, reason: 'problem' in file ? file.problem : '' }),
    ),
  ];
  const remembered = withLateCostMemory(state, memory);
  if (drafts.length === 0) {
    if (remembered === state) return { state, events: [], remove };
    return { ...withOutbox({ ...remembered, updated_at: input.ts }, []), remove };
  }
  const spent = sumUsd(
    fresh.map((file) => file.record.cost_usd),
    Math.max(state.spent_usd, input.spentUsd),
  );
  return { ...emit({ ...remembered, spent_usd: spent }, input.ts, drafts), remove };
}

/** The record after the shell removed counted files: it forgets them (a name is remembered only while its file may still be there). @internal */
export function forgetRemovedLateCosts(state: LoopState, removed: readonly PendingLateCost[], ts: string): LoopState {
  const memory = forgetRemovedCosts(
    state.late_costs,
    removed.map((file) => file.name),
  );
  if (memory === state.late_costs) return state;
  return withOutbox({ ...withLateCostMemory(state, memory), updated_at: ts }, []).state;
}
