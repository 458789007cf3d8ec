// A record remembers its pending late costs so each is counted once however a fold is cut short.
import { z } from 'zod';

/** `folded`: files added to the spend but maybe not removed yet; `unreadable`: damaged files already reported. @internal */
export const lateCostMemorySchema = z.object({
  folded: z.array(z.string()),
  unreadable: z.array(z.string()),
});

/** What a record remembers about its pending late costs. @internal */
export type LateCostMemory = z.output<typeof lateCostMemorySchema>;

/** A file of a pending late costs folder as read: its name and port path, and its record or the reason it cannot be counted. @internal */
export type PendingCost<R> = { readonly name: string; readonly path: string } & (
  | { readonly record: R }
  | { readonly problem: string }
);

// A pending late cost that reads as a record.
type ReadablePendingCost<R> = Extract<PendingCost<R>, { readonly record: unknown }>;

/** The pending files sorted against what a record remembers. @internal */
export interface PendingCostSort<R> {
  /** Readable files not counted yet: their costs are added now, once. */
  readonly fresh: readonly ReadablePendingCost<R>[];
  /** Damaged files not reported yet (a damaged file is never counted nor removed). */
  readonly newlyDamaged: readonly PendingCost<R>[];
  /** The files whose cost the record holds once this fold is committed (earlier and fresh): safe to remove after. */
  readonly remove: readonly PendingCost<R>[];
  /** What the record remembers after this fold (`undefined`: nothing). */
  readonly memory: LateCostMemory | undefined;
}

/** Fresh to count, damaged to report, counted to remove, and the memory that stops a double count. @internal */
export function sortPendingCosts<R>(
  memory: LateCostMemory | undefined,
  pending: readonly PendingCost<R>[],
): PendingCostSort<R> {
  const folded = new Set(memory?.folded ?? []);
  const reported = new Set(memory?.unreadable ?? []);
  const counted = pending.filter((file) => folded.has(file.name));
  const fresh = pending.filter((file): file is ReadablePendingCost<R> => !folded.has(file.name) && 'record' in file);
  const damaged = pending.filter((file) => !folded.has(file.name) && !('record' in file));
  const remove = [...counted, ...fresh];
  return {
    fresh,
    newlyDamaged: damaged.filter((file) => !reported.has(file.name)),
    remove,
    memory: memoryOf(
      remove.map((file) => file.name),
      damaged.map((file) => file.name),
    ),
  };
}

/** Forgets removed files: a name is remembered only while its file may be there. @internal */
export function forgetRemovedCosts(
  memory: LateCostMemory | undefined,
  removed: readonly string[],
): LateCostMemory | undefined {
  const gone = new Set(removed);
  if (memory === undefined || !memory.folded.some((name) => gone.has(name))) return memory;
  return memoryOf(
    memory.folded.filter((name) => !gone.has(name)),
    memory.unreadable,
  );
}

/** The record remembering `memory` (the field absent when `undefined`). @internal */
export function withLateCostMemory<S extends { readonly late_costs?: LateCostMemory | undefined }>(
  state: S,
  memory: LateCostMemory | undefined,
): S {
  const before = state.late_costs ?? { folded: [], unreadable: [] };
  const after = memory ?? { folded: [], unreadable: [] };
  if (sameNames(before.folded, after.folded) && sameNames(before.unreadable, after.unreadable)) return state;
  const { late_costs: _dropped, ...rest } = state;
  return (memory === undefined ? rest : { ...rest, late_costs: memory }) as S;
}

// The memory of these names, sorted (undefined when both lists are empty).
function memoryOf(folded: readonly string[], unreadable: readonly string[]): LateCostMemory | undefined {
  if (folded.length === 0 && unreadable.length === 0) return undefined;
  return { folded: [...folded].sort(), unreadable: [...unreadable].sort() };
}

// True when two name lists hold the same names in the same order.
function sameNames(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name, index) => name === b[index]);
}
