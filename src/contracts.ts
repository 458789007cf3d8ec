// goal-loop/contracts: the zod schemas of the on-disk and tool contracts (goal.json, goal-verdict.json, events.jsonl,
// loop-state.json, feedback.json and the stage contracts, critic traces and labels, the fix-loop session and
// escalation files, every tool's input and output), the types inferred from them, and the decision tables, for hosts
// that validate on the wire. No other entry exports them.

// Staged critics: what a generator and a critic return, the execution trace, outcomes and calibration labels.
export type {
  CriticDecision,
  CriticDecisionInput,
  CriticIssue,
  CriticVerdict,
  GeneratorResult,
  JsonValue,
} from './critics/contracts/decision.js';
export {
  criticDecisionSchema,
  criticIssueSchema,
  criticVerdictSchema,
  generatorResultSchema,
} from './critics/contracts/decision.js';
export type { Gap, Judgement } from './critics/contracts/execution-state.js';
export { gapSchema, judgementSchema } from './critics/contracts/execution-state.js';
export type { CalibrationLabel, CalibrationLabels } from './critics/contracts/labels.js';
export { calibrationLabelSchema, calibrationLabelsSchema, parseCalibrationLabels } from './critics/contracts/labels.js';
export type { CriticOutcomes, OutcomeRecord } from './critics/contracts/outcome.js';
export {
  criticOutcomesSchema,
  outcomeRecordSchema,
  POST_DEPLOYMENT,
  parseCriticOutcomes,
} from './critics/contracts/outcome.js';
export type { ExecutionTrace, StagedResult } from './critics/contracts/result.js';
export { stagedResultSchema } from './critics/contracts/result.js';
export type {
  CallRecord,
  EscalationReason as CriticEscalationReason,
  GeneratedRecord,
  JudgedRecord,
  RouteAction,
  TraceRecord,
} from './critics/contracts/trace.js';
export {
  escalationReasonSchema as criticEscalationReasonSchema,
  routeActionSchema,
  traceRecordSchema,
} from './critics/contracts/trace.js';
export { CRITIC_HEALTH_BANDS } from './critics/core/health-flags.js';
// The goal loop: goal.json, goal-verdict.json, events.jsonl, loop-state.json, the goal_evaluation of feedback.json.
export type { Issue, ParseResult } from './errors.js';
export { formatIssue } from './errors.js';
// The fix loop: its session files (state.json, audit.jsonl, escalation.json), its policy table and its tools.
export type { AttemptOutcome, FixAttempt } from './fix-loop/contracts/attempt.js';
export { attemptOutcomeSchema, fixAttemptSchema } from './fix-loop/contracts/attempt.js';
export type { AuditEntry, FixSessionStatus } from './fix-loop/contracts/audit.js';
export { auditEntrySchema, fixSessionStatusSchema } from './fix-loop/contracts/audit.js';
export type { FixCandidate, FixCandidateRecord, MutationType } from './fix-loop/contracts/candidate.js';
export { fixCandidateRecordSchema, fixCandidateSchema, mutationTypeSchema } from './fix-loop/contracts/candidate.js';
export type {
  EscalationReason as FixEscalationReason,
  FixAction,
  IterationAction,
  PolicyDecision,
} from './fix-loop/contracts/decision.js';
export {
  escalationReasonSchema as fixEscalationReasonSchema,
  fixActionSchema,
  iterationActionSchema,
  policyDecisionSchema,
} from './fix-loop/contracts/decision.js';
export type { AttemptSummary, EscalationReport } from './fix-loop/contracts/escalation.js';
export { attemptSummarySchema, escalationReportSchema } from './fix-loop/contracts/escalation.js';
export type { GapModel, GapParts } from './fix-loop/contracts/gap.js';
export { gapModelSchema } from './fix-loop/contracts/gap.js';
export type { FixSessionState, StepInProgress } from './fix-loop/contracts/session.js';
export { fixSessionStateSchema, stepInProgressSchema } from './fix-loop/contracts/session.js';
export type { FixSessionStart, FixSessionStartInput, TestReportFile } from './fix-loop/contracts/start.js';
export {
  DEFAULT_MAX_ATTEMPTS,
  fixSessionStartSchema,
  MAX_ATTEMPTS_CAP,
  testReportFileSchema,
} from './fix-loop/contracts/start.js';
export { NEXT_STEPS } from './fix-loop/core/escalation.js';
export type { PolicyFacts, PolicyRow, PolicyRowId } from './fix-loop/core/policy.js';
export { FIX_POLICY } from './fix-loop/core/policy.js';
export type { GetFeedbackLoopInput, GetFeedbackLoopOutput } from './fix-loop/tools/get-tool.js';
export { getFeedbackLoopInputSchema, getFeedbackLoopOutputSchema } from './fix-loop/tools/get-tool.js';
export type { RunFeedbackLoopInput, RunFeedbackLoopOutput } from './fix-loop/tools/run-tool.js';
export { runFeedbackLoopInputSchema, runFeedbackLoopOutputSchema } from './fix-loop/tools/run-tool.js';
export type { StartFeedbackLoopInput, StartFeedbackLoopOutput } from './fix-loop/tools/start-tool.js';
export { startFeedbackLoopInputSchema, startFeedbackLoopOutputSchema } from './fix-loop/tools/start-tool.js';
export type { StepFeedbackLoopInput, StepFeedbackLoopOutput } from './fix-loop/tools/step-tool.js';
export { stepFeedbackLoopInputSchema, stepFeedbackLoopOutputSchema } from './fix-loop/tools/step-tool.js';
export type { DeepReadonly, GoalDefinition } from './goal/contracts/define-goal.js';
export type { LoopEvent, LoopEventType } from './goal/contracts/events.js';
export { loopEventSchema } from './goal/contracts/events.js';
export type {
  CommandCriterion,
  Criterion,
  CriterionKind,
  FileExistsCriterion,
  Goal,
  GoalInput,
  JsonSchemaCriterion,
  JudgeCriterion,
  MaintenanceCategory,
  MetricOperator,
  MetricSource,
  MetricThresholdCriterion,
} from './goal/contracts/goal.js';
export {
  commandCriterionSchema,
  criterionSchema,
  DEFAULT_GOAL,
  fileExistsCriterionSchema,
  goalSchema,
  jsonSchemaCriterionSchema,
  judgeCriterionSchema,
  maintenanceCategorySchema,
  metricOperatorSchema,
  metricSourceSchema,
  metricThresholdCriterionSchema,
} from './goal/contracts/goal.js';
export type { AgentCriterionEntry, GoalEvaluationSection, GoalStatus } from './goal/contracts/goal-evaluation.js';
export {
  agentCriterionEntrySchema,
  goalEvaluationSectionSchema,
  goalStatusSchema,
} from './goal/contracts/goal-evaluation.js';
export type { LoopPhase, LoopState } from './goal/contracts/loop-state.js';
export { loopStateSchema } from './goal/contracts/loop-state.js';
export type { ParseGoalOptions } from './goal/contracts/parse-goal.js';
export type { StopReason } from './goal/contracts/stop-reason.js';
export { STOP_REASONS, stopReasonSchema } from './goal/contracts/stop-reason.js';
export type { ParsedVerdicts, ParseVerdictOptions, Verdict } from './goal/contracts/verdict.js';
export { parseVerdictFile, verdictFileSchema, verdictSchema } from './goal/contracts/verdict.js';
export type {
  BuiltinCheck,
  ClaimRecord,
  CriterionEvaluation,
  CriterionStatus,
  DeferredJudge,
  EvaluationStatus,
  GoalEvaluation,
} from './goal/core/evaluate.js';
export { EXIT_CODES } from './goal/core/exit-code.js';
export type { MetricReading } from './goal/core/metric.js';
export { compareMetric, readMetricValue } from './goal/core/metric.js';
export type {
  AskJudges,
  DecisionSignal,
  PrecedenceRow,
  SignalKind,
  SignalStatus,
  StatusDecision,
} from './goal/core/precedence.js';
export { DECISION_PRECEDENCE, decideStatus } from './goal/core/precedence.js';
export type { GoalFacts, LoopFacts, StopRule, StopRuleId } from './goal/core/stop-rules.js';
export { GOAL_CHANGED_REASON, STOP_RULES } from './goal/core/stop-rules.js';
export type { EvaluateGoalInput, EvaluateGoalOutput } from './goal/tools/evaluate-goal-tool.js';
export { evaluateGoalInputSchema, evaluateGoalOutputSchema } from './goal/tools/evaluate-goal-tool.js';
export type { LoopStatusInput, LoopStatusOutput } from './goal/tools/loop-status-tool.js';
export { loopStatusInputSchema, loopStatusOutputSchema } from './goal/tools/loop-status-tool.js';
export type { VerdictSource } from './goal/tools/options.js';
export type { SubmitVerdictInput, SubmitVerdictOutput } from './goal/tools/submit-verdict-tool.js';
export { submitVerdictInputSchema, submitVerdictOutputSchema } from './goal/tools/submit-verdict-tool.js';
export type { SdlcStageId, StageArtifactNames } from './pipeline/stage-presets.js';
export { FEEDBACK_STAGE, SDLC_OPTIONAL_STAGES, SDLC_STAGE_ARTIFACTS, SDLC_STAGES } from './pipeline/stage-presets.js';
export type { StageStatus } from './pipeline/stage-status.js';
export { stageOutcomeStatusSchema, stageStatusSchema } from './pipeline/stage-status.js';
export type { StageOutcomeStatus, StageRunReason } from './ports/stage-runner.js';
export type { ToolError, ToolErrorCode, ToolIssue } from './ports/tool.js';
// The consistency review: the stage contracts it reads (schemas/stages/), feedback.json, its rule catalogue.
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
export type { ContractKey, ContractSlot } from './review/core/contract-slots.js';
export { REVIEW_CONTRACT_SLOTS, REVIEW_OUTPUT_PATHS } from './review/core/contract-slots.js';
export type { IssueCategory, ReviewRule, ReviewRuleId, Severity } from './review/core/rules.js';
export { REVIEW_RULES } from './review/core/rules.js';

/**
 * The version of the fix-loop session files this package reads and writes (`schema_version` of state.json).
 *
 * @public
 */
export const FIX_LOOP_STATE_VERSION = 1;
