import type { StopReason } from '../contracts/stop-reason.js';
import { type LoopFacts, STOP_RULES, type StopRuleId } from './stop-rules.js';

/** A decision to stop, with one human sentence. @public */
export interface StopDecision {
  readonly kind: 'stop';
  readonly stoppedOn: StopReason;
  readonly reason: string;
}

/** A stop decided by {@link decideLoop}: the rule that made it, and whether the session stays open. @public */
export interface LoopStop extends StopDecision {
  /** The rule of {@link STOP_RULES} that stopped the loop. */
  readonly rule: StopRuleId;
  /** True for an abort and an unaccepted goal change: the session is not ended and `run()` resumes it. */
  readonly resumable: boolean;
}

/** A decision to rerun exactly these stages (pipeline order), with one human sentence. @public */
export interface RetryDecision {
  readonly kind: 'retry';
  readonly stages: readonly string[];
  readonly reason: string;
}

/** Nothing stops the loop at this checkpoint, and there is no evaluation to retry on: it goes on. @public */
export interface ContinueDecision {
  readonly kind: 'continue';
}

/** What the loop does at a checkpoint. @public */
export type LoopDecision = LoopStop | RetryDecision | ContinueDecision;

/** The loop's one decision: the first rule of {@link STOP_RULES} that applies stops it. @public */
export function decideLoop(facts: LoopFacts): LoopDecision {
  const rule = STOP_RULES.find((candidate) => candidate.applies(facts));
  if (rule !== undefined) {
    const { id, stoppedOn, resumable } = rule;
    return { kind: 'stop', stoppedOn, reason: rule.reason(facts), rule: id, resumable };
  }
  if (facts.evaluation?.status === 'RETRY') {
    return { kind: 'retry', stages: facts.evaluation.recommendedRerunStages, reason: facts.evaluation.reason };
  }
  return { kind: 'continue' };
}

/** The input of {@link decideAfterEvaluation}. @public */
export type DecideInput = Omit<LoopFacts, 'aborted' | 'abortedAt' | 'goal' | 'evaluation'> & {
  readonly evaluation: NonNullable<LoopFacts['evaluation']>;
};

/** {@link decideLoop} after an evaluation, with no abort and no goal change: budget, then the evaluation's status, then the RETRY brakes. @public */
export function decideAfterEvaluation(input: DecideInput): StopDecision | RetryDecision {
  const decision = decideLoop({ ...input, aborted: false });
  if (decision.kind === 'continue') throw new Error('unreachable: an evaluation always decides');
  return decision.kind === 'stop' ? plainStop(decision) : decision;
}

/**
 * The budget rule of {@link STOP_RULES} alone: a `budget_exhausted` stop when `spentUsd` ≥ `budgetUsd`, else `null`
 * (always `null` without a budget). @public
 */
export function checkBudget(spentUsd: number, budgetUsd?: number): StopDecision | null {
  const decision = decideLoop({ aborted: false, spentUsd, budgetUsd, iterationsInSession: 0, maxIterations: 1 });
  return decision.kind === 'stop' ? plainStop(decision) : null;
}

// A loop stop as the public decision helpers report it.
function plainStop({ kind, stoppedOn, reason }: LoopStop): StopDecision {
  return { kind, stoppedOn, reason };
}
