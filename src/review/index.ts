// Every name of the consistency review, for its tests and for the package root, which re-exports a curated subset.
export { type ContractKey, type ContractSlot, REVIEW_CONTRACT_SLOTS, ADOPTION_SKIPPED_STAGES, REVIEW_OUTPUT_PATHS, contractSlot } from './contract-slots.js';
export { type ContractInput, type ReviewContracts, presentContract } from './contract-input.js';
export { type ContractRead, type ContractMetadata, BROWNFIELD_SOURCE } from './contracts/metadata.js';
export { type ContractValues, type NormalizedContracts, stageContractSchemas, readStageContract } from './contracts/registry.js';
export { requirementSchema, requirementSpecSchema, type NormalizedRequirement, type RequirementSpecContract } from './contracts/requirement-spec.js';
export { DOCUMENT_TYPES, type DocumentType, documentSchema, documentationSchema, type NormalizedDocument, type DocumentationContract } from './contracts/documentation.js';
export { sprintRefSchema, sprintSchema, planSchema, type SprintRef, type NormalizedSprint, type PlanContract } from './contracts/plan.js';
export { userStorySchema, jiraTicketsSchema, type NormalizedStory, type JiraTicketsContract } from './contracts/jira-tickets.js';
export { apiEndpointSchema, securityControlSchema, systemDesignSchema, type NormalizedEndpoint, type NormalizedControl, type SystemDesignContract } from './contracts/system-design.js';
export { codeFileSchema, codeReportSchema, type NormalizedCodeFile, type CodeReportContract } from './contracts/code-report.js';
export { testCaseSchema, testReportSchema, type NormalizedTest, type TestReportContract } from './contracts/test-report.js';
export { deploymentReportSchema, type DeploymentReportContract } from './contracts/deployment-report.js';
export { riskLevelSchema, threatSchema, threatModelSchema, type NormalizedThreat, type ThreatModelContract } from './contracts/threat-model.js';
export { transcriptSchema, summarySchema, complianceReportSchema, costEstimateSchema } from './contracts/supporting.js';
export { type ContractStatus, type DuplicateId, type ReviewModel, buildReviewModel } from './model.js';
export { type Finding } from './finding.js';
export { type Severity, type IssueCategory, type ReviewRule, type ReviewRuleId, REVIEW_RULES, reviewRule } from './rules.js';
export { analyseAvailability, isBlocked, isSkippedByAdoption } from './analyses/availability.js';
export { analyseTraceability, buildTraceabilityMatrix } from './analyses/traceability.js';
export { analyseArchitecture } from './analyses/architecture.js';
export { analyseCapacity, OVERLOAD_POINTS, TIGHT_POINTS } from './analyses/capacity.js';
export { analyseSecurity, SECURITY_CATEGORIES } from './analyses/security.js';
export { analyseDocumentation, CORE_DOCUMENT_TYPES, DESIGN_DOCUMENT_TYPES } from './analyses/documentation.js';
export { analyseVersions, parseIsoTimestamp, TIMESTAMP_GAP_MS } from './analyses/versions.js';
export { analyseReferences, ID_PATTERNS } from './analyses/references.js';
export { planRemediations, issueId } from './analyses/remediation.js';
export { detectBugSwarms, BUG_SWARM_THRESHOLD, bugSwarmId } from './analyses/bug-swarm.js';
export { SEVERITY_PENALTY, type SeverityCounts, countSeverities, consistencyScore, pipelineHealth, summarizeIssues } from './score.js';
export { type FileCheck, type GoalEvaluationInput, authorGoalEvaluation } from './goal-evaluation.js';
export { scopeBaseline } from './baseline.js';
export { isAdoptedRun, buildAnalysisScope } from './analysis-scope.js';
export {
  severitySchema,
  pipelineHealthSchema,
  type PipelineHealth,
  remediationSchema,
  feedbackIssueSchema,
  type FeedbackIssue,
  analysisScopeSchema,
  traceabilityRowSchema,
  type TraceabilityRow,
  coverageSchema,
  type Coverage,
  traceabilityMatrixSchema,
  type TraceabilityMatrix,
  bugSwarmSchema,
  type BugSwarm,
  baselineSummarySchema,
  type BaselineSummary,
  feedbackSummarySchema,
  authoredGoalEvaluationSchema,
  type AuthoredGoalEvaluation,
  feedbackReportSchema,
  type FeedbackReport,
  type FeedbackReportBody,
  type NamedFields,
} from './report.js';
export { type ReviewOptions, reviewPipeline } from './review-pipeline.js';
export { renderRemediationPlan, MAX_PLAN_MATRIX_ROWS } from './remediation-plan-markdown.js';
export { type ValidationCheck, type ValidationContract, type BuilderContract, buildValidationContract, buildBuilderContract, reviewFailed } from './task-contracts.js';
export { type ReadRunOptions, type RunInputs, DEFAULT_READ_CONCURRENCY, readRunInputs } from './read-run.js';
export { type ConsistencyReviewOptions, type ConsistencyReviewResult, runConsistencyReview } from './run-review.js';
export { type ReviewStageRunnerOptions, createReviewStageRunner } from './review-stage-runner.js';
