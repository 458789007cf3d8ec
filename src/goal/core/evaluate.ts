import { formatIssue, type Issue, moreIssues } from '../../errors.js';
import { readOwn } from '../../kit/dot-path.js';
import { pushAll } from '../../kit/record.js';
import { sentence } from '../../kit/sentence.js';
import { orderByPipeline, withFeedbackRefresh } from '../../pipeline/stage-mapping.js';
import type { GoalStatus } from '../contracts/goal-evaluation.js';
import type { BuiltinCheck } from './builtin-check.js';
import { evaluateBuiltins } from './builtins.js';
import type { ClaimRecord } from './claims.js';
import { type CriterionContext, type CriterionEvaluation, evaluateCriterion } from './criteria.js';
import { criterionSignal, reasonFor } from './evaluation-reason.js';
import type { EvaluationFacts } from './facts.js';
import { schemaErrorIssues } from './json-schema-verdict.js';
import { type AskJudges, type DecisionSignal, decideStatus, type SignalStatus } from './precedence.js';
import { resolveVerdicts } from './verdicts.js';

export type { BuiltinCheck } from './builtin-check.js';
export type { ClaimRecord } from './claims.js';
export type { CriterionEvaluation, CriterionStatus } from './criteria.js';

/** The status of an evaluation: a goal status, or `ERROR` when the goal itself could not be used (see `issues`). @public */
export type EvaluationStatus = GoalStatus | 'ERROR';

/** The result of evaluating a goal: plain, JSON-serialisable data. @public */
export interface GoalEvaluation {
  readonly goalId: string;
  readonly status: EvaluationStatus;
  /** 100 × passing checks / all checks (criteria plus built-ins), one decimal; 100 when there is no check. */
  readonly score: number;
  readonly minScore: number;
  /** One human sentence naming what decided the status. */
  readonly reason: string;
  /** The run-wide iteration evaluated, or `null` outside a loop. */
  readonly iteration: number | null;
  /** Stages whose status is `failed` or `blocked`, in pipeline order. */
  readonly failingStages: readonly string[];
  /** Only on RETRY: the stages to rerun, in pipeline order. */
  readonly recommendedRerunStages: readonly string[];
  readonly criticalCount: number;
  readonly criteria: readonly CriterionEvaluation[];
  readonly builtins: readonly BuiltinCheck[];
  readonly claims: { readonly consumed: readonly ClaimRecord[]; readonly rejected: readonly ClaimRecord[] };
  /** Judge criteria without a fresh verdict that are not asked yet, because something else decides first. */
  readonly deferredJudges: readonly DeferredJudge[];
  /** Every reason the goal is not (yet) met, each mapped to a status by the precedence table. */
  readonly signals: readonly DecisionSignal[];
  /** Contract issues met on the way (ignored verdict entries, a malformed feedback report, an invalid goal). */
  readonly issues: readonly Issue[];
}

/** A judge criterion that waits: it is asked once nothing else would rerun or stop the loop. @public */
export interface DeferredJudge {
  readonly criterionId: string;
  /** Why it waits, in a clause ("asked once nothing else is rerun: Criterion docs-lint failed"). */
  readonly reason: string;
}

/** How {@link evaluateGoal} decides. @public */
export interface EvaluateOptions {
  /** When a judge without a fresh verdict asks a human (default `last`: once nothing else would rerun). */
  readonly askJudges?: AskJudges;
}

/**
 * Evaluates a goal from gathered facts: every criterion, the built-in checks, the verdict protocol, then the status by
 * the precedence table ({@link DECISION_PRECEDENCE}). @public
 */
export function evaluateGoal(facts: EvaluationFacts, options: EvaluateOptions = {}): GoalEvaluation {
  const { goal, stages } = facts;
  const unusable = schemaErrorIssues(goal.criteria, facts.criteria);
  if (unusable.length > 0) return errorEvaluation(goal.goal_id, unusable, facts.iteration);
  const verdicts = resolveVerdicts(facts);
  // One context for every criterion but the judges (each has its own verdict outcome).
  const context: CriterionContext = { stages, feedbackStage: facts.feedbackStage };
  const criteria = goal.criteria.map((criterion, index) =>
    evaluateCriterion(
      criterion,
      readOwn(facts.criteria, criterion.id),
      criterion.kind === 'judge'
        ? { stages, feedbackStage: facts.feedbackStage, judge: verdicts.judges.get(criterion.id) }
        : context,
      index,
    ),
  );
  const builtins = evaluateBuiltins(facts);
  const checks: readonly (CriterionEvaluation | BuiltinCheck)[] = [...criteria, ...builtins.checks];
  const score = scoreOf(checks);
  // A judge waiting for a verdict reruns nothing, and the score that decides is that of everything else.
  const waiting = criteria.filter((criterion) => criterion.kind === 'judge' && criterion.status === 'PENDING');
  const others = checks.filter((check) => !waiting.includes(check as CriterionEvaluation));
  const rerunSources: string[] = [];
  // Lists from goal-verdict.json and feedback.json may be longer than a call takes arguments: pushed one by one.
  for (const check of others) if (check.status !== 'PASS') pushAll(rerunSources, check.rerunStages);
  const signals: DecisionSignal[] = [];
  for (const criterion of criteria) {
    const signal = criterionSignal(criterion);
    if (signal !== null) signals.push(signal);
  }
  pushAll(pushAll(signals, verdicts.signals), builtins.signals);
  const othersScore = scoreOf(others);
  if (othersScore < goal.min_score)
    signals.push({
      kind: 'score_below_min',
      source: 'score',
      message: `Score ${othersScore} is below min_score ${goal.min_score}`,
    });
  const { status, decisive } = decideStatus(signals, options.askJudges);
  const asked = decisive.some((signal) => signal.kind === 'judge_pending');
  const deferredJudges = asked ? [] : waiting.map((judge) => deferral(judge.id, status, decisive));
  const known = new Set(stages);
  const recommendedRerunStages =
    status === 'RETRY'
      ? withFeedbackRefresh(
          orderByPipeline(
            rerunSources.filter((stage) => known.has(stage)),
            stages,
          ),
          stages,
          facts.feedbackStage,
        )
      : [];
  return {
    goalId: goal.goal_id,
    status,
    score,
    minScore: goal.min_score,
    reason: reasonFor(status, decisive, recommendedRerunStages, {
      goalId: goal.goal_id,
      checks: checks.length,
      score,
      minScore: goal.min_score,
      deferred: deferredJudges,
    }),
    iteration: facts.iteration,
    failingStages: stages.filter((stage) => {
      const stageStatus = readOwn(facts.stageStatuses, stage);
      return stageStatus === 'failed' || stageStatus === 'blocked';
    }),
    recommendedRerunStages,
    criticalCount: builtins.criticalCount,
    criteria,
    builtins: builtins.checks,
    claims: { consumed: verdicts.consumed, rejected: verdicts.rejected },
    deferredJudges,
    signals,
    issues: [...unknownStageIssues(facts), ...verdicts.issues, ...builtins.issues],
  };
}

// Issue codes of a goal file that gave no goal, so no goal id, to read (its read failed, or its text is not JSON).
const UNREAD_GOAL_CODES: ReadonlySet<string> = new Set(['unreadable', 'invalid_json']);
/**
 * The evaluation of a goal that could not be used (an invalid goal.json): status `ERROR`, score 0, no checks, the
 * issues and a reason naming the first of them. @public
 */
export function errorEvaluation(goalId: string, issues: readonly Issue[], iteration: number | null): GoalEvaluation {
  const first = issues[0];
  const more = moreIssues(issues.length);
  const unread = first !== undefined && first.path.length === 0 && UNREAD_GOAL_CODES.has(first.code);
  const reason =
    first === undefined
      ? `Goal ${goalId} could not be evaluated.`
      : unread
        ? sentence(`The goal could not be read: ${first.message}${more}`)
        : sentence(`Goal ${goalId} is invalid: ${formatIssue(first)}${more}`);
  return {
    goalId,
    status: 'ERROR',
    score: 0,
    minScore: 100,
    reason,
    iteration,
    failingStages: [],
    recommendedRerunStages: [],
    criticalCount: 0,
    criteria: [],
    builtins: [],
    claims: { consumed: [], rejected: [] },
    deferredJudges: [],
    signals: [],
    issues,
  };
}

// 100 × passing / all, one decimal; 100 when there is no check.
function scoreOf(checks: readonly { readonly status: string }[]): number {
  const passing = checks.filter((check) => check.status === 'PASS').length;
  return checks.length === 0 ? 100 : Math.round((passing / checks.length) * 1000) / 10;
}

// Why a pending judge is not asked, by the status that decided before it.
const WAITS: Readonly<Record<SignalStatus, string>> = {
  RETRY: 'asked once nothing else is rerun',
  BLOCK: 'not asked while the goal is blocked',
  ASK_USER: 'asked after the human decision asked for first',
};

// A pending judge that waits, and what decided before it.
function deferral(criterionId: string, status: GoalStatus, decisive: readonly DecisionSignal[]): DeferredJudge {
  const first = decisive[0]?.message ?? `the goal is ${status}`;
  return { criterionId, reason: `${status === 'PASS' ? WAITS.RETRY : WAITS[status]}: ${first}` };
}

// Issues for criterion rerun stages that are not stages of the pipeline (they are never rerun).
function unknownStageIssues(facts: EvaluationFacts): Issue[] {
  const known = new Set(facts.stages);
  const issues: Issue[] = [];
  for (const [index, criterion] of facts.goal.criteria.entries()) {
    for (const [stageIndex, stage] of criterion.rerun_stages.entries()) {
      if (known.has(stage)) continue;
      const message = `"${stage}" is not a stage of the pipeline; it is not rerun`;
      issues.push({ code: 'unknown_stage', path: ['criteria', index, 'rerun_stages', stageIndex], message });
    }
  }
  return issues;
}
