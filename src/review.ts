// goal-loop/review: the consistency review (stage 11 as code): stage contracts, the pure review, its shell and stage runner.

export { reviewPipeline } from './review/core/review-pipeline.js';
export type { ReviewOptions } from './review/core/review-pipeline.js';
export type { FileCheck } from './review/core/goal-evaluation.js';
export { runConsistencyReview } from './review/run-review.js';
export type { ConsistencyReviewOptions, ConsistencyReviewResult } from './review/run-review.js';
export { createReviewStageRunner } from './review/review-stage-runner.js';
export type { ReviewStageRunnerOptions } from './review/review-stage-runner.js';
export { readRunInputs, DEFAULT_READ_CONCURRENCY } from './review/read-run.js';
export type { ReadRunOptions, RunInputs } from './review/read-run.js';
export { presentContract } from './review/core/contract-input.js';
export type { ContractInput, ReviewContracts } from './review/core/contract-input.js';
export {
  REVIEW_CONTRACT_SLOTS,
  REVIEW_OUTPUT_PATHS,
  ADOPTION_SKIPPED_STAGES,
  contractSlot,
} from './review/core/contract-slots.js';
export type { ContractKey, ContractSlot } from './review/core/contract-slots.js';
export { stageContractSchemas, readStageContract } from './review/contracts/registry.js';
export type { ContractValues, NormalizedContracts } from './review/contracts/registry.js';
export type { ContractRead, ContractMetadata } from './review/contracts/metadata.js';
export { requirementSpecSchema } from './review/contracts/requirement-spec.js';
export type { RequirementSpecContract, NormalizedRequirement } from './review/contracts/requirement-spec.js';
export { documentationSchema, DOCUMENT_TYPES } from './review/contracts/documentation.js';
export type { DocumentationContract, DocumentType, NormalizedDocument } from './review/contracts/documentation.js';
export { planSchema } from './review/contracts/plan.js';
export type { PlanContract, NormalizedSprint, SprintRef } from './review/contracts/plan.js';
export { jiraTicketsSchema } from './review/contracts/jira-tickets.js';
export type { JiraTicketsContract, NormalizedStory } from './review/contracts/jira-tickets.js';
export { systemDesignSchema } from './review/contracts/system-design.js';
export type { SystemDesignContract, NormalizedEndpoint, NormalizedControl } from './review/contracts/system-design.js';
export { codeReportSchema } from './review/contracts/code-report.js';
export type { CodeReportContract, NormalizedCodeFile } from './review/contracts/code-report.js';
export { testReportSchema } from './review/contracts/test-report.js';
export type { TestReportContract, NormalizedTest } from './review/contracts/test-report.js';
export { deploymentReportSchema } from './review/contracts/deployment-report.js';
export type { DeploymentReportContract } from './review/contracts/deployment-report.js';
export { threatModelSchema, riskLevelSchema } from './review/contracts/threat-model.js';
export type { ThreatModelContract, NormalizedThreat } from './review/contracts/threat-model.js';
export {
  transcriptSchema,
  summarySchema,
  complianceReportSchema,
  costEstimateSchema,
} from './review/contracts/supporting.js';
export type { MetadataOnlyContract } from './review/contracts/metadata.js';
export { REVIEW_RULES, reviewRule } from './review/core/rules.js';
export type { Severity, IssueCategory, ReviewRule, ReviewRuleId } from './review/core/rules.js';
export { ID_PATTERNS } from './review/analyses/references.js';
export { SEVERITY_PENALTY, consistencyScore, pipelineHealth, countSeverities } from './review/core/score.js';
export type { SeverityCounts } from './review/core/score.js';
export {
  feedbackReportSchema,
  feedbackIssueSchema,
  feedbackSummarySchema,
  authoredGoalEvaluationSchema,
  bugSwarmSchema,
  coverageSchema,
  pipelineHealthSchema,
  traceabilityMatrixSchema,
  traceabilityRowSchema,
} from './review/contracts/feedback-report.js';
export type {
  FeedbackReport,
  FeedbackReportBody,
  FeedbackIssue,
  PipelineHealth,
  TraceabilityMatrix,
  TraceabilityRow,
  Coverage,
  BugSwarm,
  AuthoredGoalEvaluation,
  NamedFields,
} from './review/contracts/feedback-report.js';
export { renderRemediationPlan } from './review/core/remediation-plan-markdown.js';
export type { ValidationCheck, ValidationContract, BuilderContract } from './review/core/task-contracts.js';

// The shared types this entry's signatures use, so its declarations stand alone.
export type { Issue } from './errors.js';
export type { FileSystem, FileStat } from './ports/file-system.js';
export type { Clock } from './ports/clock.js';
export type { StageRunner, StageContext, StageOutcome } from './ports/stage-runner.js';
export type { SdlcStageId } from './pipeline/stage-presets.js';
export type { Goal, MaintenanceCategory } from './index.js';
