import { type AgentCriterionEntry, type Criterion, type DecisionSignal, decideStatus } from '../../goal-shared.js';
import { orderByPipeline, withFeedbackRefresh } from '../../pipeline/stage-mapping.js';
import type { FeedbackIssue } from '../contracts/feedback-issues.js';
import type { AuthoredGoalEvaluation } from '../contracts/feedback-report.js';
import { criterionEntry } from './criterion-entry.js';
import type { GoalEvaluationInput } from './goal-evaluation-input.js';

export type { FileCheck, GoalEvaluationInput } from './goal-evaluation-input.js';

/** Analysis 8: authors `goal_evaluation`. @public */
export function authorGoalEvaluation(input: GoalEvaluationInput): AuthoredGoalEvaluation {
  const criteria = input.goal === null ? [] : input.goal.criteria.map((criterion) => criterionEntry(criterion, input));
  const issues = input.report.issues;
  const criticals = issues.filter((issue) => issue.severity === 'CRITICAL');
  const notMet = criteria.filter((entry) => entry.result === 'not_met');
  const unknownJudges =
    input.goal === null
      ? []
      : input.goal.criteria.filter(
          (criterion) =>
            criterion.kind === 'judge' &&
            criteria.find((entry) => entry.criterion_id === criterion.id)?.result === 'unknown',
        );
  const failing = orderByPipeline(
    criticals.map((issue) => issue.source_agent),
    input.stages,
  );
  const rerunBase = [
    ...criticals.flatMap((issue) =>
      issue.remediation.agent_to_rerun === null ? [] : [issue.remediation.agent_to_rerun],
    ),
    ...notMet.flatMap((entry) => entry.recommended_rerun_stages),
    ...input.blockedStages,
  ];
  // A retry the review asks for outdates its own report, whichever stages it reruns.
  const rerun = withFeedbackRefresh(orderByPipeline(rerunBase, input.stages), input.stages, input.feedbackStage, {
    reportOutdated: rerunBase.length > 0,
  });
  const { status, reason } = decide(input, criticals, notMet, unknownJudges, rerun);
  return {
    goal_id: input.goal?.goal_id ?? 'pipeline-complete',
    ...(input.iteration === null ? {} : { iteration: input.iteration }),
    status,
    consistency_score: input.report.summary.overall_consistency_score,
    critical_count: input.report.summary.critical_count,
    failing_stages: failing,
    recommended_rerun_stages: status === 'RETRY' ? rerun : [],
    requires_human_decision: status === 'ASK_USER' || status === 'BLOCK',
    reason,
    criteria,
  };
}

// The review's signals, each mapped to a status by the core's one table: a judge left open, a CRITICAL issue (remediable or not), a criterion not met, a missing core stage.
function reviewSignals(
  input: GoalEvaluationInput,
  criticals: readonly FeedbackIssue[],
  notMet: readonly AgentCriterionEntry[],
  unknownJudges: readonly Criterion[],
): DecisionSignal[] {
  return [
    ...unknownJudges.map(
      (criterion): DecisionSignal => ({
        kind: 'judge_pending',
        source: criterion.id,
        message: `Judge criterion ${criterion.id} has no verdict`,
      }),
    ),
    ...criticals.map(
      (issue): DecisionSignal =>
        issue.remediation.agent_to_rerun === null
          ? { kind: 'unremediable_critical', source: issue.id, message: `${issue.id} has no stage to rerun` }
          : { kind: 'critical_issue', source: issue.id, message: `${issue.id} is CRITICAL` },
    ),
    ...notMet.map(
      (entry): DecisionSignal => ({
        kind: 'criterion_failed',
        source: entry.criterion_id,
        message: `Criterion ${entry.criterion_id} is not met`,
      }),
    ),
    ...input.blockedStages.map(
      (stage): DecisionSignal => ({
        kind: 'stage_pending',
        source: `stage:${stage}`,
        message: `${stage} has no contract`,
      }),
    ),
  ];
}

// The section's status by the core's precedence (judges asked last) and a one-sentence reason; an invalid goal asks a human before any signal counts.
function decide(
  input: GoalEvaluationInput,
  criticals: readonly FeedbackIssue[],
  notMet: readonly AgentCriterionEntry[],
  unknownJudges: readonly Criterion[],
  rerun: readonly string[],
): { status: AuthoredGoalEvaluation['status']; reason: string } {
  if (input.goalIssues.length > 0)
    return {
      status: 'ASK_USER',
      reason: `goal.json is invalid (${input.goalIssues.length} issue${input.goalIssues.length === 1 ? '' : 's'}, first: ${input.goalIssues[0]?.message ?? ''}); a human must fix it before the goal can be evaluated.`,
    };
  const { status, decisive } = decideStatus(reviewSignals(input, criticals, notMet, unknownJudges));
  const plural = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;
  switch (status) {
    case 'ASK_USER':
      return {
        status,
        reason: `${plural(decisive.length, 'judge criterion needs', 'judge criteria need')} a host or human verdict.`,
      };
    case 'BLOCK':
      return {
        status,
        reason: `${decisive.map((signal) => signal.source).join(', ')}: CRITICAL with no stage to rerun; a human must decide how to fix ${decisive.length === 1 ? 'it' : 'them'}.`,
      };
    case 'RETRY': {
      const parts = [
        criticals.length > 0 ? plural(criticals.length, 'CRITICAL issue', 'CRITICAL issues') : null,
        notMet.length > 0 ? plural(notMet.length, 'criterion not met', 'criteria not met') : null,
        input.blockedStages.length > 0 ? 'most core contracts missing' : null,
      ].filter((part): part is string => part !== null);
      const waiting = unknownJudges.map((criterion) => criterion.id).join(', ');
      const judges =
        waiting === ''
          ? ''
          : ` Judge ${waiting} ${unknownJudges.length === 1 ? 'is' : 'are'} asked once nothing else is rerun.`;
      return { status, reason: `${parts.join(', ')}: rerun ${rerun.join(', ')}.${judges}` };
    }
    case 'PASS':
      return {
        status,
        reason: `No CRITICAL issue; consistency score ${input.report.summary.overall_consistency_score} (${input.report.summary.pipeline_health}).`,
      };
  }
}
