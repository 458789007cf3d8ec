import { sumUsd } from '../../kit/usd.js';
import type { PendingLateCost } from '../contracts/late-cost.js';
import type { LoopState } from '../contracts/loop-state.js';
import { draft, emit, type Transition, withOutbox } from './emit.js';

/** A pending late cost that reads as a record. @internal */
type ReadableLateCost = Extract<PendingLateCost, { readonly record: unknown }>;

/** A fold of the pending late costs: the next record with its events, and the files the shell removes after it. @internal */
export interface LateCostFold extends Transition {
  /** The files whose cost the record now holds (new and earlier ones): safe to remove once it is committed. */
  readonly remove: readonly PendingLateCost[];
}

/**
 * Adds the pending late costs the record has not counted yet to the spend,
 * once each: the spend becomes the larger of the record's and `spentUsd`
 * (metrics.json: spend recorded elsewhere counts, as everywhere in the loop)
 * plus each new cost, with a `late_cost_recorded` event per file. The record
 * remembers the files it counted until they are gone, so a crash between its
 * commit and their removal never counts one twice. A damaged file is
 * reported once (`late_cost_unreadable`) and kept, never counted nor
 * dropped. Nothing to do returns `state` itself. Pure.
 *
 * @internal
 */
export function foldLateCosts(
  state: LoopState,
  input: { readonly pending: readonly PendingLateCost[]; readonly spentUsd: number; readonly ts: string },
): LateCostFold {
  const folded = new Set(state.late_costs?.folded ?? []);
  const reported = new Set(state.late_costs?.unreadable ?? []);
  const counted = input.pending.filter((file) => folded.has(file.name));
  const fresh = input.pending.filter((file): file is ReadableLateCost => !folded.has(file.name) && 'record' in file);
  const damaged = input.pending.filter((file) => !folded.has(file.name) && !('record' in file));
  const drafts = [
    ...fresh.map(({ record, path }) =>
      draft('late_cost_recorded', {
        stage: record.stage,
        stage_iteration: record.iteration,
        cost_usd: record.cost_usd,
        path,
      }),
    ),
    ...damaged
      .filter((file) => !reported.has(file.name))
      .map((file) => draft('late_cost_unreadable', { path: file.path, reason: 'problem' in file ? file.problem : '' })),
  ];
  const remove = [...counted, ...fresh];
  const remembered = withMemory(
    state,
    remove.map((file) => file.name),
    damaged.map((file) => file.name),
  );
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

/**
 * The record after the shell removed counted files: it forgets them (a name
 * is remembered only while its file may still be there). Pure.
 *
 * @internal
 */
export function forgetRemovedLateCosts(state: LoopState, removed: readonly PendingLateCost[], ts: string): LoopState {
  const gone = new Set(removed.map((file) => file.name));
  const memory = state.late_costs;
  if (memory === undefined || !memory.folded.some((name) => gone.has(name))) return state;
  const next = withMemory(
    state,
    memory.folded.filter((name) => !gone.has(name)),
    memory.unreadable,
  );
  return withOutbox({ ...next, updated_at: ts }, []).state;
}

// The record remembering exactly these names (the field absent when both lists are empty); `state` when unchanged.
function withMemory(state: LoopState, foldedNames: readonly string[], unreadableNames: readonly string[]): LoopState {
  const folded = [...foldedNames].sort();
  const unreadable = [...unreadableNames].sort();
  const before = state.late_costs ?? { folded: [], unreadable: [] };
  if (sameNames(before.folded, folded) && sameNames(before.unreadable, unreadable)) return state;
  const { late_costs: _dropped, ...rest } = state;
  if (folded.length === 0 && unreadable.length === 0) return rest;
  return { ...rest, late_costs: { folded, unreadable } };
}

// True when two name lists hold the same names in the same order.
function sameNames(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name, index) => name === b[index]);
}
