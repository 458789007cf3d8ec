import type { Issue } from '../../errors.js';
import {
  type AgentCriterionEntry,
  type Criterion,
  compareMetric,
  type DecisionSignal,
  decideStatus,
  type Goal,
  readMetricValue,
} from '../../index.js';
import { readDotPath } from '../../kit/dot-path.js';
import { orderByPipeline, withFeedbackRefresh } from '../../pipeline/stage-mapping.js';
import type { AuthoredGoalEvaluation, FeedbackIssue, FeedbackReportBody } from '../contracts/feedback-report.js';

/**
 * What reading the run found at one `file_exists` criterion's path (resolved
 * against the run dir or the project root, as the criterion says): it
 * exists, or it does not (missing, or refused by containment), or it could
 * not be checked at all (`error`: why, e.g. a path too long for the OS).
 *
 * @public
 */
export interface FileCheck {
  /** True when something exists at the path, inside the project. */
  readonly exists: boolean;
  /** Why the path could not be checked at all (then `exists` is false). */
  readonly error?: string;
}

/** What the review knows when it authors `goal_evaluation`. @public */
export interface GoalEvaluationInput {
  /** The run's goal, or null without goal.json. */
  readonly goal: Goal | null;
  /** Issues of a goal.json that exists but does not parse (then `goal` is null). */
  readonly goalIssues: readonly Issue[];
  /** The iteration of the latest `loop_iteration_started`, or null outside a loop. */
  readonly iteration: number | null;
  /** The check of each `file_exists` criterion's path, by criterion id: the only evidence such a result may cite (unchecked: unknown). */
  readonly fileChecks: ReadonlyMap<string, FileCheck>;
  /** The run-relative path of feedback.json: the evidence of results computed from this report. */
  readonly feedbackPath: string;
  /** The report without its goal_evaluation: the source of `feedback` metrics. */
  readonly report: FeedbackReportBody;
  /** Core stages to rerun because the review is BLOCKED (majority missing). */
  readonly blockedStages: readonly string[];
  /** Pipeline order of stage ids, for sorting rerun stages. */
  readonly stages: readonly string[];
  readonly feedbackStage: string;
}

// Reads a metric of this report exactly as the loop's core does (readDotPath, readMetricValue: an array's `length`, no hex), so the review never settles a criterion the loop leaves PENDING.
function metricValue(report: FeedbackReportBody, path: string): { value: number } | { why: string } {
  const found = readDotPath(report, path);
  if (!found.found) return { why: `${path} is not in this report (${found.why} at ${found.at})` };
  const reading = readMetricValue(found.value);
  return reading.kind === 'number'
    ? { value: reading.value }
    : { why: `${path} is not a number in this report (${reading.why})` };
}

// The stages remediating the report's CRITICAL and WARNING issues.
function remediatingStages(issues: readonly FeedbackIssue[]): string[] {
  return issues
    .filter((issue) => issue.severity !== 'INFO')
    .flatMap((issue) => (issue.remediation.agent_to_rerun === null ? [] : [issue.remediation.agent_to_rerun]));
}

// One criterion entry: a result only with existing evidence, else unknown; every entry carries rstack's default recommendation, retry.
function criterionEntry(criterion: Criterion, input: GoalEvaluationInput): AgentCriterionEntry {
  const base = {
    criterion_id: criterion.id,
    ...(input.iteration === null ? {} : { iteration: input.iteration }),
    recommendation: 'retry' as const,
    maintenance_category: criterion.maintenance_category ?? 'corrective',
  };
  const unknown = (reasoning: string): AgentCriterionEntry => ({
    ...base,
    result: 'unknown',
    evidence: [],
    reasoning,
    recommended_rerun_stages: [],
  });
  switch (criterion.kind) {
    case 'file_exists': {
      const check = input.fileChecks.get(criterion.id);
      if (check?.exists === true)
        return {
          ...base,
          result: 'met',
          evidence: [criterion.path],
          reasoning: `${criterion.path} exists.`,
          recommended_rerun_stages: [],
        };
      if (check?.error !== undefined)
        return unknown(
          `${criterion.path} could not be checked (${check.error}), so there is no evidence to cite; the loop checks the file itself.`,
        );
      return unknown(
        `${criterion.path} does not exist, so there is no evidence to cite; the loop checks the file itself.`,
      );
    }
    case 'metric_threshold': {
      if (criterion.source !== 'feedback')
        return unknown('The metric source is not this report; the loop reads it itself.');
      const read = metricValue(input.report, criterion.metric);
      if ('why' in read) return unknown(`${read.why}.`);
      const met = compareMetric(read.value, criterion.operator, criterion.value);
      const reasoning = `${criterion.metric} is ${read.value}, ${met ? 'which satisfies' : 'which fails'} ${criterion.operator} ${criterion.value}.`;
      if (met)
        return { ...base, result: 'met', evidence: [input.feedbackPath], reasoning, recommended_rerun_stages: [] };
      const rerun = withFeedbackRefresh(
        orderByPipeline([...criterion.rerun_stages, ...remediatingStages(input.report.issues)], input.stages),
        input.stages,
        input.feedbackStage,
        { reportOutdated: true },
      );
      return { ...base, result: 'not_met', evidence: [input.feedbackPath], reasoning, recommended_rerun_stages: rerun };
    }
    case 'command':
      return unknown('A command criterion is run by the loop itself; the review cannot observe its exit code.');
    case 'json_schema':
      return unknown('A json_schema criterion is validated by the loop itself.');
    case 'judge':
      return unknown(
        'A deterministic review cannot answer a judge question; a verdict in goal-verdict.json (host or human) closes it.',
      );
  }
}

/**
 * Analysis 8: authors `goal_evaluation`. Every criterion is stamped with the
 * latest loop iteration (never ahead of it; omitted outside a loop), gets a
 * result only where its evidence exists (else `unknown`, with the reason),
 * carries a `recommendation` (`retry`, rstack-agents' default), and on
 * `not_met` lists the feedback stage among its rerun stages. A `feedback`
 * metric is read as the loop's core reads it (`readDotPath`,
 * `readMetricValue`), and the section's status follows the core's one
 * precedence table (ASK_USER \> BLOCK \> RETRY \> PASS). Without a goal the
 * section has empty `criteria`. Pure.
 *
 * @public
 */
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

// The section's status by the core's precedence (ASK_USER > BLOCK > RETRY > PASS) and a one-sentence reason; an invalid goal asks a human before any signal counts.
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
      return { status, reason: `${parts.join(', ')}: rerun ${rerun.join(', ')}.` };
    }
    case 'PASS':
      return {
        status,
        reason: `No CRITICAL issue; consistency score ${input.report.summary.overall_consistency_score} (${input.report.summary.pipeline_health}).`,
      };
  }
}
