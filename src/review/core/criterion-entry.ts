// One goal criterion's entry in `goal_evaluation`: a result only where its evidence exists, else unknown.
import { type AgentCriterionEntry, type Criterion, compareMetric, readMetricValue } from '../../goal-shared.js';
import { readDotPath } from '../../kit/dot-path.js';
import { orderByPipeline, withFeedbackRefresh } from '../../pipeline/stage-mapping.js';
import type { FeedbackIssue } from '../contracts/feedback-issues.js';
import type { FeedbackReportBody } from '../contracts/feedback-report.js';
import type { GoalEvaluationInput } from './goal-evaluation-input.js';

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

/** One criterion entry: a result only with existing evidence, else unknown; every entry carries rstack's default recommendation, retry. */
export function criterionEntry(criterion: Criterion, input: GoalEvaluationInput): AgentCriterionEntry {
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
