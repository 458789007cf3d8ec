import type { Issue } from '../errors.js';
import type { CriterionKind } from '../contracts/goal.js';
import type { GoalStatus } from '../contracts/goal-evaluation.js';
import type { EvaluationFacts } from './facts.js';

/** PASS, FAIL or PENDING (not decidable yet: no verdict, no source, skipped). @public */
export type CriterionStatus = 'PASS' | 'FAIL' | 'PENDING';

/**
 * The status of an evaluation: a goal status, or `ERROR` when the goal itself
 * could not be used (see `issues`).
 *
 * @public
 */
export type EvaluationStatus = GoalStatus | 'ERROR';

/** One evaluated criterion of the goal. @public */
export interface CriterionEvaluation {
  readonly id: string;
  readonly kind: CriterionKind;
  readonly status: CriterionStatus;
  /** One human sentence saying why. */
  readonly detail: string;
  /** The observed value where there is one: the metric value, the exit code, … */
  readonly observed?: unknown;
  /** The stages a RETRY on this criterion reruns (after verdict replacements and additions). */
  readonly rerunStages: readonly string[];
  /** For judge criteria: where the verdict came from. */
  readonly verdictSource?: 'explicit' | 'agent';
}

/** One built-in check over stage statuses and the feedback report. @public */
export interface BuiltinCheck {
  /** `stage:<stage id>`, `feedback:criticals` or `feedback:readable`. */
  readonly id: string;
  readonly status: CriterionStatus;
  readonly detail: string;
  readonly rerunStages: readonly string[];
}

/** A verdict claim the evaluation considered: consumed or rejected, and why. @public */
export interface ClaimRecord {
  readonly criterionId: string | null;
  readonly source: 'explicit' | 'agent';
  readonly reason: string;
}

/**
 * The result of evaluating a goal: plain, JSON-serialisable data.
 *
 * @public
 */
export interface GoalEvaluation {
  readonly goalId: string;
  readonly status: EvaluationStatus;
  /** 100 × passing checks / all checks (criteria plus built-ins), one decimal. */
  readonly score: number;
  readonly minScore: number;
  /** One human sentence. */
  readonly reason: string;
  /** The run-wide iteration evaluated, or `null` outside a loop. */
  readonly iteration: number | null;
  readonly failingStages: readonly string[];
  /** Only on RETRY: the stages to rerun, in pipeline order. */
  readonly recommendedRerunStages: readonly string[];
  readonly criticalCount: number;
  readonly criteria: readonly CriterionEvaluation[];
  readonly builtins: readonly BuiltinCheck[];
  readonly claims: { readonly consumed: readonly ClaimRecord[]; readonly rejected: readonly ClaimRecord[] };
  /** Contract issues met on the way (ignored verdict entries, a malformed feedback report, an invalid goal). */
  readonly issues: readonly Issue[];
}

/**
 * Evaluates a goal from gathered facts (SPEC §5.2, §5.4). Pure: same facts,
 * same evaluation.
 *
 * @public
 */
export function evaluateGoal(facts: EvaluationFacts): GoalEvaluation {
  void facts;
  throw new Error('evaluateGoal is not implemented yet');
}
