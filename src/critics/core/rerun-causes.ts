import { ownValue } from '../../kit/record.js';
import type { FeedbackCause } from '../contracts/execution-state.js';

/** By stage id: the route-back cause owed to a stage that a route back made run again. @internal */
export type RerunCauses = Readonly<Record<string, FeedbackCause>>;

/** The cause of a stage's first call when nothing routed back through it. @internal */
export const INITIAL_CAUSE: FeedbackCause = { kind: 'initial', issues: [], reason: null };

/**
 * The causes owed after the critic of stage `from` routed back to stage `to` (indices in `stages`) with `cause`: every
 * stage after the target up to and including `from` runs again once the target is redone, and each is owed `cause`.
 * @internal
 */
export function oweRouteBack(
  owed: RerunCauses,
  stages: readonly string[],
  from: number,
  to: number,
  cause: FeedbackCause,
): RerunCauses {
  const rerun = stages.slice(to + 1, from + 1).map((stage) => [stage, cause] as const);
  return { ...owed, ...Object.fromEntries(rerun) };
}

/**
 * Arriving at `stage` after the stage before it was accepted: the cause of its first call (what a route back owes it,
 * else `initial`) and the causes still owed to the stages after it. @internal
 */
export function arriveAt(owed: RerunCauses, stage: string): { cause: FeedbackCause; owed: RerunCauses } {
  const rest = { ...owed };
  delete rest[stage];
  return { cause: ownValue(owed, stage) ?? INITIAL_CAUSE, owed: rest };
}
