import type { CriterionKind, Goal } from '../contracts/goal.js';

/** A goal's criteria by id, as the verdict protocol looks them up. @internal */
export interface CriteriaIndex {
  /** The kind of each criterion id (a repeated id keeps the last). */
  readonly kinds: ReadonlyMap<string, CriterionKind>;
  /** The judge criteria's ids, once each, in goal order. */
  readonly judgeIds: readonly string[];
}

// One index per goal object: a loop evaluates the same parsed goal every iteration, and a goal is never mutated.
const indexes = new WeakMap<Goal, CriteriaIndex>();

/**
 * The criteria of `goal` by id, built on the first call for a goal object
 * and kept while the goal is. Pure (the same goal gives the same index).
 *
 * @internal
 */
export function criteriaIndex(goal: Goal): CriteriaIndex {
  const known = indexes.get(goal);
  if (known !== undefined) return known;
  const kinds = new Map<string, CriterionKind>();
  const judges = new Set<string>();
  for (const criterion of goal.criteria) {
    kinds.set(criterion.id, criterion.kind);
    if (criterion.kind === 'judge') judges.add(criterion.id);
  }
  const index: CriteriaIndex = { kinds, judgeIds: [...judges] };
  indexes.set(goal, index);
  return index;
}
