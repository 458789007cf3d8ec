// goal-loop/review: the consistency review (stage 11 as code): stage contracts, the pure review, its shell and stage runner.

// The shared types this entry's signatures use, so its declarations stand alone.
export type { Issue } from './errors.js';
export type { Goal, MaintenanceCategory } from './index.js';
export type { SdlcStageId } from './pipeline/stage-presets.js';
export type { Clock } from './ports/clock.js';
export type { FileStat, FileSystem } from './ports/file-system.js';
export type { StageContext, StageOutcome, StageRunner } from './ports/stage-runner.js';
export { ID_PATTERNS } from './review/analyses/references.js';
export type { CodeReportContract, NormalizedCodeFile } from './review/contracts/code-report.js';
export { codeReportSchema } from './review/contracts/code-report.js';
export type { DeploymentReportContract } from './review/contracts/deployment-report.js';
export { deploymentReportSchema } from './review/contracts/deployment-report.js';
export type { DocumentationContract, DocumentType, NormalizedDocument } from './review/contracts/documentation.js';
export { DOCUMENT_TYPES, documentationSchema } from './review/contracts/documentation.js';
export type {
  AuthoredGoalEvaluation,
  BugSwarm,
  Coverage,
  FeedbackIssue,
  FeedbackReport,
  FeedbackReportBody,
  NamedFields,
  PipelineHealth,
  TraceabilityMatrix,
  TraceabilityRow,
} from './review/contracts/feedback-report.js';
export {
  authoredGoalEvaluationSchema,
  bugSwarmSchema,
  coverageSchema,
  feedbackIssueSchema,
  feedbackReportSchema,
  feedbackSummarySchema,
  pipelineHealthSchema,
  traceabilityMatrixSchema,
  traceabilityRowSchema,
} from './review/contracts/feedback-report.js';
export type { JiraTicketsContract, NormalizedStory } from './review/contracts/jira-tickets.js';
export { jiraTicketsSchema } from './review/contracts/jira-tickets.js';
export type { ContractMetadata, ContractRead, MetadataOnlyContract } from './review/contracts/metadata.js';
export type { NormalizedSprint, PlanContract, SprintRef } from './review/contracts/plan.js';
export { planSchema } from './review/contracts/plan.js';
export type { ContractValues, NormalizedContracts } from './review/contracts/registry.js';
export { readStageContract, stageContractSchemas } from './review/contracts/registry.js';
export type { NormalizedRequirement, RequirementSpecContract } from './review/contracts/requirement-spec.js';
export { requirementSpecSchema } from './review/contracts/requirement-spec.js';
export {
  complianceReportSchema,
  costEstimateSchema,
  summarySchema,
  transcriptSchema,
} from './review/contracts/supporting.js';
export type { NormalizedControl, NormalizedEndpoint, SystemDesignContract } from './review/contracts/system-design.js';
export { systemDesignSchema } from './review/contracts/system-design.js';
export type { NormalizedTest, TestReportContract } from './review/contracts/test-report.js';
export { testReportSchema } from './review/contracts/test-report.js';
export type { NormalizedThreat, ThreatModelContract } from './review/contracts/threat-model.js';
export { riskLevelSchema, threatModelSchema } from './review/contracts/threat-model.js';
export type { ContractInput, ReviewContracts } from './review/core/contract-input.js';
export { presentContract } from './review/core/contract-input.js';
export type { ContractKey, ContractSlot } from './review/core/contract-slots.js';
export {
  ADOPTION_SKIPPED_STAGES,
  contractSlot,
  REVIEW_CONTRACT_SLOTS,
  REVIEW_OUTPUT_PATHS,
} from './review/core/contract-slots.js';
export type { FileCheck } from './review/core/goal-evaluation.js';
export { renderRemediationPlan } from './review/core/remediation-plan-markdown.js';
export type { ReviewOptions } from './review/core/review-pipeline.js';
export { reviewPipeline } from './review/core/review-pipeline.js';
export type { IssueCategory, ReviewRule, ReviewRuleId, Severity } from './review/core/rules.js';
export { REVIEW_RULES, reviewRule } from './review/core/rules.js';
export type { SeverityCounts } from './review/core/score.js';
export { consistencyScore, countSeverities, pipelineHealth, SEVERITY_PENALTY } from './review/core/score.js';
export type { BuilderContract, ValidationCheck, ValidationContract } from './review/core/task-contracts.js';
export type { ReadRunOptions, RunInputs } from './review/read-run.js';
export { DEFAULT_READ_CONCURRENCY, readRunInputs } from './review/read-run.js';
export type { ReviewStageRunnerOptions } from './review/review-stage-runner.js';
export { createReviewStageRunner } from './review/review-stage-runner.js';
export type { ConsistencyReviewOptions, ConsistencyReviewResult } from './review/run-review.js';
export { runConsistencyReview } from './review/run-review.js';
