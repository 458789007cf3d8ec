/**
 * A verdict claim the evaluation considered: consumed or rejected, and why.
 *
 * @public
 */
export interface ClaimRecord {
  /** The criterion the claim is about, or `null` for an id-less verdict. */
  readonly criterionId: string | null;
  /** `explicit`: goal-verdict.json; `agent`: feedback.json `goal_evaluation.criteria[]`. */
  readonly source: 'explicit' | 'agent';
  /** One human sentence. */
  readonly reason: string;
  /** The claim's position in its pool (verdict order in goal-verdict.json, or index in `criteria[]`). */
  readonly index?: number;
}

/**
 * Whether a verdict's iteration stamp is fresh, and if not, why;
 * `ahead` marks an agent stamp greater than the current iteration.
 *
 * @public
 */
export type Freshness =
  | { readonly fresh: true }
  | { readonly fresh: false; readonly ahead: boolean; readonly why: string };

/**
 * The freshness rule of the verdict protocol. Inside a loop at iteration
 * `n`, a verdict is fresh iff its stamp is ≥ `n`; a missing stamp is stale;
 * an AGENT stamp ahead of `n` is not fresh either (`ahead: true`: an
 * over-stamped claim is malformed, and it forces ASK_USER). An EXPLICIT
 * verdict may be stamped `n + 1` (written between iterations for the next
 * one) but not further ahead: a stamp like 999 would stay fresh forever, so
 * it is rejected with a reason (`ahead: true`, no ASK_USER). Outside a loop
 * (`iteration` null) every explicit verdict counts, stamped or not, and an
 * agent claim counts only when it carries a stamp: the spec lets only
 * explicit verdicts go unstamped. Pure.
 *
 * @public
 */
export function stampFreshness(
  stamp: number | undefined,
  iteration: number | null,
  pool: 'explicit' | 'agent',
): Freshness {
  if (iteration === null) {
    if (pool === 'explicit' || stamp !== undefined) return { fresh: true };
    return {
      fresh: false,
      ahead: false,
      why: 'it carries no iteration stamp (outside a loop only explicit verdicts may be unstamped)',
    };
  }
  if (stamp === undefined)
    return {
      fresh: false,
      ahead: false,
      why: `it carries no iteration stamp, which is stale inside a loop (iteration ${iteration})`,
    };
  if (stamp < iteration)
    return { fresh: false, ahead: false, why: `it is stamped ${stamp}, older than the current iteration ${iteration}` };
  if (pool === 'agent' && stamp > iteration) {
    return {
      fresh: false,
      ahead: true,
      why: `it is stamped ${stamp}, ahead of the current iteration ${iteration}: an over-stamped claim is malformed`,
    };
  }
  if (pool === 'explicit' && stamp > iteration + 1) {
    return {
      fresh: false,
      ahead: true,
      why: `it is stamped ${stamp}, more than one iteration ahead of the current iteration ${iteration} (at most ${iteration + 1}): such a stamp would stay fresh forever`,
    };
  }
  return { fresh: true };
}

/**
 * Builds a claim record. Pure.
 *
 * @internal
 */
export function claim(
  source: 'explicit' | 'agent',
  criterionId: string | null,
  index: number,
  reason: string,
): ClaimRecord {
  return { criterionId, source, reason, index };
}
