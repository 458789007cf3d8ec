import type { CriterionKind, Goal } from '../contracts/goal.js';
import type { Verdict } from '../contracts/verdict.js';
import { type ClaimRecord, claim, type OutputHistory, stampFreshness } from './claims.js';

/** The explicit verdict chosen for one judge criterion. @public */
export interface ExplicitChoice {
  readonly verdict: Verdict;
  /** Its position in goal-verdict.json. */
  readonly index: number;
  /** True when it is the id-less shorthand for the goal's only judge criterion. */
  readonly shorthand: boolean;
}

/** What the explicit pool (goal-verdict.json) yields: a verdict per judge criterion it decides, and every claim's fate. @public */
export interface ExplicitPool {
  readonly chosen: ReadonlyMap<string, ExplicitChoice>;
  readonly consumed: readonly ClaimRecord[];
  readonly rejected: readonly ClaimRecord[];
}

interface Candidate {
  readonly verdict: Verdict;
  readonly index: number;
}

/**
 * Searches the explicit pool fully: for each judge criterion, the fresh id-matched verdicts first, then — only when the
 * goal has exactly one judge criterion — the fresh id-less shorthand verdicts. @public
 */
export function searchExplicitPool(
  verdicts: readonly Verdict[],
  goal: Goal,
  stages: readonly string[],
  iteration: number | null,
  history?: OutputHistory,
): ExplicitPool {
  const { judgeIds, kinds, rerunOf } = criteriaIndex(goal);
  // Why a verdict stamped before this iteration still holds, by verdict.
  const kept = new Map<Verdict, string>();
  const byId = new Map<string, Candidate[]>();
  const idless: Candidate[] = [];
  const rejected: ClaimRecord[] = [];
  const known = new Set(stages);

  // Why a verdict cannot be used at all (null when it can).
  const unusable = (verdict: Verdict, id: string | null): string | null => {
    if (id === null && judgeIds.length !== 1) {
      return `it has no criterion_id, which applies only when the goal has exactly one judge criterion (it has ${judgeIds.length})`;
    }
    if (id !== null) {
      const kind = kinds.get(id);
      if (kind === undefined) return `goal ${goal.goal_id} has no criterion "${id}"`;
      if (kind !== 'judge') return `criterion ${id} is a ${kind} criterion; verdicts apply only to judge criteria`;
    }
    const unknown = (verdict.recommended_rerun_stages ?? []).filter((stage) => !known.has(stage));
    if (unknown.length > 0) return `it names stages outside the pipeline (${unknown.join(', ')})`;
    // An id-less verdict judges the goal's only judge criterion (checked above).
    const judges = rerunOf.get(id ?? judgeIds[0] ?? '');
    const judged = history === undefined || judges === undefined ? undefined : { stages: judges, history };
    const freshness = stampFreshness(verdict.iteration, iteration, 'explicit', judged);
    if (freshness.fresh && freshness.kept !== undefined) kept.set(verdict, freshness.kept);
    return freshness.fresh ? null : freshness.why;
  };
  for (const [index, verdict] of verdicts.entries()) {
    const id = verdict.criterion_id ?? null;
    const why = unusable(verdict, id);
    if (why !== null)
      rejected.push(claim('explicit', id, index, `Explicit verdict ${verdict.verdict} not used: ${why}.`));
    else if (id === null) idless.push({ verdict, index });
    else {
      const list = byId.get(id);
      if (list === undefined) byId.set(id, [{ verdict, index }]);
      else list.push({ verdict, index });
    }
  }

  const chosen = new Map<string, ExplicitChoice>();
  const consumed: ClaimRecord[] = [];
  for (const id of judgeIds) {
    const matched = byId.get(id) ?? [];
    const shorthand = matched.length === 0;
    const pool = shorthand ? idless : matched;
    const winner = pickFreshest(pool);
    if (winner === null) continue;
    chosen.set(id, { verdict: winner.verdict, index: winner.index, shorthand });
    const how = shorthand ? 'id-less shorthand verdict' : 'explicit verdict';
    consumed.push(
      claim(
        'explicit',
        shorthand ? null : id,
        winner.index,
        `Consumed the ${how} ${winner.verdict.verdict} for ${id}${stampNote(winner.verdict, kept.get(winner.verdict))}.`,
      ),
    );
    for (const loser of pool) {
      if (loser === winner) continue;
      rejected.push(
        claim(
          'explicit',
          shorthand ? null : id,
          loser.index,
          `Explicit verdict ${loser.verdict.verdict} not used: superseded by verdict #${winner.index} for ${id} (highest stamp, then last in file order).`,
        ),
      );
    }
    if (!shorthand) {
      for (const loser of idless) {
        rejected.push(
          claim(
            'explicit',
            null,
            loser.index,
            `Explicit verdict ${loser.verdict.verdict} not used: an id-matched verdict for ${id} takes precedence over the id-less shorthand.`,
          ),
        );
      }
    }
  }
  return { chosen, consumed, rejected: rejected.sort((a, b) => (a.index ?? 0) - (b.index ?? 0)) };
}

// The candidate with the highest stamp, ties going to the last in file order; null for none.
function pickFreshest(candidates: readonly Candidate[]): Candidate | null {
  let best: Candidate | null = null;
  for (const candidate of candidates) {
    if (best === null || (candidate.verdict.iteration ?? -1) >= (best.verdict.iteration ?? -1)) best = candidate;
  }
  return best;
}

// Says how a consumed verdict is stamped.
function stampNote(verdict: Verdict, kept: string | undefined): string {
  if (verdict.iteration === undefined) return ' (unstamped, outside a loop)';
  return kept === undefined
    ? ` (stamped ${verdict.iteration})`
    : ` (stamped ${verdict.iteration}; still fresh: ${kept})`;
}

// A goal's criteria by id, as the explicit pool looks them up.
interface CriteriaIndex {
  /** The kind of each criterion id (a repeated id keeps the last). */
  readonly kinds: ReadonlyMap<string, CriterionKind>;
  /** The judge criteria's ids, once each, in goal order. */
  readonly judgeIds: readonly string[];
  /** The stages whose output each judge criterion judges (its `rerun_stages`). */
  readonly rerunOf: ReadonlyMap<string, readonly string[]>;
}

// The criteria of `goal` by id, in one pass (built for each evaluation: a host may edit its goal between two).
function criteriaIndex(goal: Goal): CriteriaIndex {
  const kinds = new Map<string, CriterionKind>();
  const judges = new Set<string>();
  const rerunOf = new Map<string, readonly string[]>();
  for (const criterion of goal.criteria) {
    kinds.set(criterion.id, criterion.kind);
    if (criterion.kind !== 'judge') continue;
    judges.add(criterion.id);
    rerunOf.set(criterion.id, criterion.rerun_stages);
  }
  return { kinds, judgeIds: [...judges], rerunOf };
}
