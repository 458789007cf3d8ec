// goal-loop/review: the consistency review (stage 11 as code): the stage contracts it reads, the pure review, its shell
// and its stage runner. It reaches the goal loop only through goal-loop's public entry.

// The shared types this entry's signatures use, so its declarations stand alone.
export type { Issue } from './errors.js';
export type {
  BuiltinCheck,
  ClaimRecord,
  Criterion,
  CriterionEvaluation,
  CriterionKind,
  CriterionStatus,
  criterionSchema,
  DecisionSignal,
  DeferredJudge,
  EvaluationStatus,
  Goal,
  GoalEvaluation,
  GoalStatus,
  goalSchema,
  goalStatusSchema,
  MaintenanceCategory,
  maintenanceCategorySchema,
  SDLC_STAGES,
  SignalKind,
  StageContext,
  StageContextOf,
  StageOutcome,
  StageOutcomeStatus,
  StageRunner,
  StageRunnerOf,
  StageRunReason,
  stageOutcomeStatusSchema,
} from './index.js';
export type { SdlcStageId } from './pipeline/stage-presets.js';
export type { Clock } from './ports/clock.js';
export type { FileGuard, FileStat, FileSystem } from './ports/file-system.js';
export type { ProcessProbe } from './ports/process-probe.js';

// The review's own surface: the stage contracts it reads (zod schemas of their canonical shapes, shipped as JSON Schemas
// in schemas/stages/), the report it writes (feedback.json, schemas/feedback.schema.json) and its rule catalogue, the
// pure review (reviewPipeline, renderRemediationPlan), and the shell (readRunInputs, runConsistencyReview,
// createReviewStageRunner).
export { codeReportSchema } from './review/contracts/code-report.js';
export { deploymentReportSchema } from './review/contracts/deployment-report.js';
export type { DocumentType } from './review/contracts/documentation.js';
export { DOCUMENT_TYPES, documentationSchema } from './review/contracts/documentation.js';
export type { BugSwarm, FeedbackIssue, OmittedIssues } from './review/contracts/feedback-issues.js';
export { bugSwarmSchema, feedbackIssueSchema, omittedIssuesSchema } from './review/contracts/feedback-issues.js';
export type {
  AuthoredGoalEvaluation,
  Coverage,
  FeedbackReport,
  FeedbackReportBody,
  NamedFields,
  PipelineHealth,
  TraceabilityMatrix,
  TraceabilityRow,
} from './review/contracts/feedback-report.js';
export {
  authoredGoalEvaluationSchema,
  coverageSchema,
  feedbackReportSchema,
  feedbackSummarySchema,
  pipelineHealthSchema,
  traceabilityMatrixSchema,
  traceabilityRowSchema,
} from './review/contracts/feedback-report.js';
export { jiraTicketsSchema } from './review/contracts/jira-tickets.js';
export { MAX_ID_LENGTH } from './review/contracts/metadata.js';
export { planSchema } from './review/contracts/plan.js';
export { stageContractSchemas } from './review/contracts/registry.js';
export { requirementSpecSchema } from './review/contracts/requirement-spec.js';
export {
  complianceReportSchema,
  costEstimateSchema,
  summarySchema,
  transcriptSchema,
} from './review/contracts/supporting.js';
export { systemDesignSchema } from './review/contracts/system-design.js';
export { testReportSchema } from './review/contracts/test-report.js';
export { riskLevelSchema, threatModelSchema } from './review/contracts/threat-model.js';
export type { ContractInput, ReviewContracts } from './review/core/contract-input.js';
export { presentContract } from './review/core/contract-input.js';
export type { ContractKey, ContractSlot } from './review/core/contract-slots.js';
export { REVIEW_CONTRACT_SLOTS, REVIEW_OUTPUT_PATHS } from './review/core/contract-slots.js';
export { DEFAULT_MAX_ISSUES_PER_RULE } from './review/core/finding-cap.js';
export type { FileCheck } from './review/core/goal-evaluation.js';
export { renderRemediationPlan } from './review/core/remediation-plan-markdown.js';
export type { ReviewOptions } from './review/core/review-pipeline.js';
export { reviewPipeline } from './review/core/review-pipeline.js';
export type { IssueCategory, ReviewRule, ReviewRuleId, Severity } from './review/core/rules.js';
export { REVIEW_RULES } from './review/core/rules.js';
export type { BuilderContract, ValidationCheck, ValidationContract } from './review/core/task-contracts.js';

export type { ReadRunOptions, RunInputs } from './review/read-run.js';
export { DEFAULT_READ_CONCURRENCY, readRunInputs } from './review/read-run.js';
export type { ReviewStageRunnerOptions } from './review/review-stage-runner.js';
export { createReviewStageRunner } from './review/review-stage-runner.js';
export type { ConsistencyReviewOptions, ConsistencyReviewResult } from './review/run-review.js';
export { runConsistencyReview } from './review/run-review.js';
