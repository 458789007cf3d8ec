// What an evaluation says in words and signals: the signal each criterion raises for the precedence table, and the
// one sentence naming what decided the status.
import type { GoalStatus } from '../contracts/goal-evaluation.js';
import type { CriterionEvaluation } from './criteria.js';
import type { DecisionSignal } from './precedence.js';

/** The signal one evaluated criterion raises (none when it passes). Pure. @internal */
export function criterionSignal(criterion: CriterionEvaluation): DecisionSignal | null {
  const { id, kind, status } = criterion;
  if (status === 'PASS') return null;
  const summary = criterion.summary === undefined ? '' : ` (${criterion.summary})`;
  switch (status) {
    case 'PENDING':
      return kind === 'judge'
        ? { kind: 'judge_pending', source: id, message: `Judge criterion ${id} has no fresh verdict` }
        : { kind: 'criterion_pending', source: id, message: `Criterion ${id} is pending${summary}` };
    case 'FAIL':
      if (criterion.refusedPath !== undefined)
        return {
          kind: 'path_refused',
          source: id,
          message: `Criterion ${id} names a path the project refuses at ${criterion.refusedPath}${summary}`,
        };
      return kind === 'judge' && criterion.recommendation === 'block'
        ? {
            kind: 'judge_block',
            source: id,
            message: `Judge criterion ${id} failed with recommendation block${summary}`,
          }
        : { kind: 'criterion_failed', source: id, message: `Criterion ${id} failed${summary}` };
    default: {
      const unreachable: never = status;
      throw new Error(`unknown criterion status ${String(unreachable)}`);
    }
  }
}

/** One sentence naming what decided the status. Pure. @internal */
export function reasonFor(
  status: GoalStatus,
  decisive: readonly DecisionSignal[],
  rerun: readonly string[],
  context: {
    readonly goalId: string;
    readonly checks: number;
    readonly score: number;
    readonly minScore: number;
    readonly deferred: readonly { readonly criterionId: string }[];
  },
): string {
  const { goalId, checks, score, minScore } = context;
  const first = decisive[0]?.message ?? `Goal ${goalId} is not met`;
  // The score signal follows from the others; it counts only when it decides alone.
  const others = decisive.slice(1).filter((signal) => signal.kind !== 'score_below_min').length;
  const lead = others > 0 ? `${first}, plus ${others} more finding(s)` : first;
  switch (status) {
    case 'PASS':
      return checks === 0
        ? `Goal ${goalId} is met: there are no criteria and no stages to check.`
        : `Goal ${goalId} is met: all ${checks} check(s) pass (score ${score}, min_score ${minScore}).`;
    case 'ASK_USER':
      return `${lead}; a human must decide before the loop goes on.`;
    case 'BLOCK':
      return `${lead}; the goal is blocked until a human intervenes.`;
    case 'RETRY':
      return `${rerun.length > 0 ? `${lead}; rerun ${rerun.join(', ')}.` : `${lead}; there is no stage to rerun.`}${waitingJudges(context.deferred)}`;
    default: {
      const unreachable: never = status;
      throw new Error(`unknown goal status ${String(unreachable)}`);
    }
  }
}

// The sentence naming the judges a decision defers (none: nothing).
function waitingJudges(deferred: readonly { readonly criterionId: string }[]): string {
  if (deferred.length === 0) return '';
  const names = deferred.map((judge) => judge.criterionId).join(', ');
  return ` Judge ${names} ${deferred.length === 1 ? 'is' : 'are'} asked once nothing else is rerun.`;
}
