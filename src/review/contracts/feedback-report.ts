import { z } from 'zod';
import { agentCriterionEntrySchema, goalStatusSchema } from '../../goal-shared.js';
import { bugSwarmSchema, feedbackIssueSchema, omittedIssuesSchema } from './feedback-issues.js';

/** The health bands of a consistency score. @public */
export const pipelineHealthSchema = z.enum(['HEALTHY', 'NEEDS_ATTENTION', 'CRITICAL_GAPS']);

/** A pipeline health band. @public */
export type PipelineHealth = z.infer<typeof pipelineHealthSchema>;

/** The named fields of a type, without the index signature a tolerant (loose) schema adds: `Omit` and `Pick` work on the result. @public */
export type NamedFields<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };

/** A parse issue of a malformed contract. @public */
export const parseIssueSchema = z.looseObject({
  code: z.string(),
  path: z.array(z.union([z.string(), z.number()])),
  message: z.string(),
});

/** `analysis_scope`: what was analysed, missing, malformed, skipped. @public */
export const analysisScopeSchema = z.looseObject({
  mode: z.enum(['greenfield', 'adopt']),
  contracts_analyzed: z.array(z.string()),
  contracts_missing: z.array(z.string()),
  contracts_malformed: z.array(z.string()),
  contracts_skipped: z
    .array(z.string())
    .describe(
      'Paths of the contracts missing but not expected, so not findings: their stage is one an adoption deliberately skips, or is outside the pipeline stages the review was given.',
    ),
  optional_agents_detected: z.array(z.string()),
  legacy_paths_used: z.array(z.string()),
  contracts: z.array(
    z.looseObject({
      contract: z.string(),
      stage: z.string(),
      state: z.enum(['analysed', 'missing', 'malformed', 'skipped']),
      path: z.string(),
      legacy: z.boolean(),
      issues: z.array(parseIssueSchema),
    }),
  ),
});

/** One requirement row of the traceability matrix. @public */
export const traceabilityRowSchema = z.looseObject({
  requirement_id: z.string(),
  title: z.string(),
  baseline: z.boolean(),
  stories: z.array(z.string()),
  code: z.array(z.string()),
  tests: z.array(z.string()),
  deployment: z.array(z.string()),
  fully_traced: z.boolean(),
});

/** A traceability matrix row. @public */
export type TraceabilityRow = z.output<typeof traceabilityRowSchema>;

/** Coverage counts over a set of requirements. @public */
export const coverageSchema = z.looseObject({
  total_requirements: z.int().min(0),
  requirements_with_stories: z.int().min(0),
  requirements_with_code: z.int().min(0),
  requirements_with_tests: z.int().min(0),
  requirements_with_deployment: z.int().min(0),
  requirements_fully_traced: z.int().min(0),
  coverage_percentage: z.number().min(0).max(100),
});

/** Coverage counts. @public */
export type Coverage = NamedFields<z.output<typeof coverageSchema>>;

/** `traceability_matrix`: the new work's coverage, each row, and (adopted runs) the baseline's coverage. @public */
export const traceabilityMatrixSchema = coverageSchema.extend({
  requirements: z.array(traceabilityRowSchema),
  baseline: coverageSchema.optional(),
});

/** The traceability matrix. @public */
export type TraceabilityMatrix = z.output<typeof traceabilityMatrixSchema>;

// The counts by severity, score and health of a set of issues.
const scoredIssuesFields = {
  total_issues: z.int().min(0).describe('Every issue found: those listed in issues[] and those in omitted_issues.'),
  critical_count: z.int().min(0),
  warning_count: z.int().min(0),
  info_count: z.int().min(0),
  overall_consistency_score: z.number().min(0).max(100),
  pipeline_health: pipelineHealthSchema,
};

/** `summary.baseline`: the adopted baseline's issues (those with `baseline: true`), counted and scored apart. @public */
export const baselineSummarySchema = z.looseObject(scoredIssuesFields);

/** The adopted baseline's issue counts, score and health. @public */
export type BaselineSummary = z.output<typeof baselineSummarySchema>;

/** `summary`: counts, score and health of the new work's issues. @public */
export const feedbackSummarySchema = z.looseObject({
  ...scoredIssuesFields,
  baseline: baselineSummarySchema
    .optional()
    .describe('Adopted runs only: the baseline issues, scored apart from the main score.'),
});

/** `goal_evaluation` as the review authors it. @public */
export const authoredGoalEvaluationSchema = z.looseObject({
  goal_id: z.string().min(1),
  iteration: z.int().min(0).optional().describe('The latest loop_iteration_started; omitted outside a loop.'),
  status: goalStatusSchema,
  consistency_score: z.number(),
  critical_count: z.int().min(0),
  failing_stages: z.array(z.string()),
  recommended_rerun_stages: z.array(z.string()),
  requires_human_decision: z.boolean(),
  reason: z.string(),
  criteria: z.array(agentCriterionEntrySchema),
});

/** The authored goal_evaluation section. @public */
export type AuthoredGoalEvaluation = z.output<typeof authoredGoalEvaluationSchema>;

/** The whole `feedback.json`, contract version 1.1: what the consistency review writes and what the goal loop reads. @public */
export const feedbackReportSchema = z.looseObject({
  $schema: z.string().optional(),
  contract_version: z.literal('1.1'),
  produced_by: z.string(),
  timestamp: z.string(),
  pipeline_complete: z.boolean(),
  pipeline_status: z.enum(['REVIEWED_AND_COMPLETE', 'BLOCKED']),
  analysis_scope: analysisScopeSchema,
  traceability_matrix: traceabilityMatrixSchema,
  issues: z
    .array(feedbackIssueSchema)
    .describe('At most the per-rule cap of issues for each rule (1,000 by default); the rest are in omitted_issues.'),
  omitted_issues: z
    .array(omittedIssuesSchema)
    .optional()
    .describe('Present when a rule found more issues than issues[] lists: the count of the rest, by rule.'),
  bug_swarms: z.array(bugSwarmSchema),
  summary: feedbackSummarySchema,
  goal_evaluation: authoredGoalEvaluationSchema,
  remediation_plan_path: z.string(),
  previous_agent: z.string(),
});

/** feedback.json (contract 1.1). @public */
export type FeedbackReport = z.output<typeof feedbackReportSchema>;

/** feedback.json without its goal_evaluation section (what the goal evaluation reads). @public */
export type FeedbackReportBody = Omit<NamedFields<FeedbackReport>, 'goal_evaluation'>;
