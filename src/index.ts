// The root entry: the pure core, the contracts, and the shells. No Node built-ins, no execa.

export { GoalLoopError, isGoalLoopError, formatIssue, formatJsonPath } from './errors.js';
export type { GoalLoopErrorCode, Issue } from './errors.js';

// Contracts (zod schemas; types inferred from them).
export type { ParseResult } from './contracts/parse-result.js';
export {
  goalSchema,
  criterionSchema,
  fileExistsCriterionSchema,
  commandCriterionSchema,
  metricThresholdCriterionSchema,
  metricSourceSchema,
  metricOperatorSchema,
  judgeCriterionSchema,
  jsonSchemaCriterionSchema,
  maintenanceCategorySchema,
  parseGoal,
  DEFAULT_GOAL,
  MAX_COMMAND_TIMEOUT_MS,
} from './contracts/goal.js';
export type {
  Goal,
  GoalInput,
  Criterion,
  CriterionKind,
  FileExistsCriterion,
  CommandCriterion,
  MetricThresholdCriterion,
  JudgeCriterion,
  JsonSchemaCriterion,
  MetricSource,
  MetricOperator,
  MaintenanceCategory,
  ParseGoalOptions,
} from './contracts/goal.js';
export { verdictSchema, verdictFileSchema, parseVerdictFile } from './contracts/verdict.js';
export type { Verdict, ParsedVerdicts, ParseVerdictOptions } from './contracts/verdict.js';
export { goalStatusSchema, agentCriterionEntrySchema, goalEvaluationSectionSchema } from './contracts/goal-evaluation.js';
export type { GoalStatus, AgentCriterionEntry, GoalEvaluationSection } from './contracts/goal-evaluation.js';
export { feedbackViewSchema, feedbackIssueViewSchema, readFeedbackView } from './contracts/feedback-view.js';
export type { FeedbackView, FeedbackIssueView, FeedbackRead } from './contracts/feedback-view.js';
export { loopEventSchema, stopReasonSchema } from './contracts/events.js';
export { stageOutcomeStatusSchema, stageStatusSchema } from './contracts/stage-status.js';
export type { LoopEvent, LoopEventType, LoopEventDraft } from './contracts/events.js';
export { loopStateSchema } from './contracts/loop-state.js';
export type { LoopState, LoopPhase } from './contracts/loop-state.js';

// Ports.
export type { FileSystem, FileStat } from './ports/file-system.js';
export type { CommandRunner, CommandRunOptions, CommandResult } from './ports/command-runner.js';
export type { Clock } from './ports/clock.js';
export type { StageRunner, StageOutcome, StageOutcomeStatus, StageContext, StageRunReason } from './ports/stage-runner.js';

// Pure core of the goal loop.
export type { StageStatus, PathFact, DocumentFact, CriterionFact, EvidenceFact, ExplicitVerdictsFact, EvaluationFacts } from './core/facts.js';
export { evaluateGoal, errorEvaluation } from './core/evaluate.js';
export type { GoalEvaluation, EvaluationStatus, CriterionEvaluation, CriterionStatus, BuiltinCheck, ClaimRecord } from './core/evaluate.js';
export { STATUS_PRECEDENCE, SIGNAL_STATUS, decideStatus } from './core/precedence.js';
export type { SignalKind, SignalStatus, DecisionSignal, StatusDecision } from './core/precedence.js';
export { decideAfterEvaluation, checkBudget, clampMaxIterations, DEFAULT_MAX_ITERATIONS, MAX_ITERATIONS_HARD_CAP } from './core/decide.js';
export type { LoopDecision, StopDecision, RetryDecision, DecideInput } from './core/decide.js';
export { STOP_REASONS, EXIT_CODES, exitCodeFor } from './core/stop-reason.js';
export type { StopReason } from './core/stop-reason.js';
export { progressFingerprint } from './core/fingerprint.js';
export { canonicalJson, hashJson } from './core/hash.js';
export { mapAgentToStage } from './core/stage-mapping.js';
export { SDLC_STAGES, SDLC_OPTIONAL_STAGES, SDLC_STAGE_ARTIFACTS, FEEDBACK_STAGE, isSdlcStage } from './core/stage-presets.js';
export type { SdlcStageId, StageArtifactNames } from './core/stage-presets.js';

// The goal loop shell.
export { GoalLoop } from './loop/goal-loop.js';
export type { GoalLoopOptions } from './loop/options.js';
export type { LoopResult, LoopStepResult } from './loop/loop-result.js';
export { createCommandStageRunner } from './loop/command-stage-runner.js';
export type { CommandStageRunnerOptions } from './loop/command-stage-runner.js';
export { runPaths } from './loop/run-paths.js';
export type { RunPaths } from './loop/run-paths.js';
export { readLatestIterationStarted } from './loop/event-log.js';
export { resolveContainedPath, resolveEvidencePath } from './loop/containment.js';
export type { ContainmentOptions, RealpathCache } from './loop/containment.js';

// The consistency review (stage 11 as code).
export { reviewPipeline } from './review/review-pipeline.js';
export type { ReviewOptions } from './review/review-pipeline.js';
export type { FileCheck } from './review/goal-evaluation.js';
export { runConsistencyReview } from './review/run-review.js';
export type { ConsistencyReviewOptions, ConsistencyReviewResult } from './review/run-review.js';
export { createReviewStageRunner } from './review/review-stage-runner.js';
export type { ReviewStageRunnerOptions } from './review/review-stage-runner.js';
export { readRunInputs, DEFAULT_READ_CONCURRENCY } from './review/read-run.js';
export type { ReadRunOptions, RunInputs } from './review/read-run.js';
export { presentContract } from './review/contract-input.js';
export type { ContractInput, ReviewContracts } from './review/contract-input.js';
export { REVIEW_CONTRACT_SLOTS, REVIEW_OUTPUT_PATHS, ADOPTION_SKIPPED_STAGES, contractSlot } from './review/contract-slots.js';
export type { ContractKey, ContractSlot } from './review/contract-slots.js';
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
export { transcriptSchema, summarySchema, complianceReportSchema, costEstimateSchema } from './review/contracts/supporting.js';
export type { MetadataOnlyContract } from './review/contracts/metadata.js';
export { REVIEW_RULES, reviewRule } from './review/rules.js';
export type { Severity, IssueCategory, ReviewRule, ReviewRuleId } from './review/rules.js';
export { ID_PATTERNS } from './review/analyses/references.js';
export { SEVERITY_PENALTY, consistencyScore, pipelineHealth, countSeverities } from './review/score.js';
export type { SeverityCounts } from './review/score.js';
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
} from './review/report.js';
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
} from './review/report.js';
export { renderRemediationPlan } from './review/remediation-plan-markdown.js';
export type { ValidationCheck, ValidationContract, BuilderContract } from './review/task-contracts.js';
