// goal-loop: the goal loop (contracts, pure evaluation and decisions, the GoalLoop shell) and the shared types:
// errors, ports, the system clock, stage presets. No Node built-ins, no execa, and none of the other capabilities.

// Contracts (zod schemas; types inferred from them).
export type { GoalLoopErrorCode, Issue, ParseResult } from './errors.js';
export { formatIssue, formatJsonPath, GoalLoopError, isGoalLoopError } from './errors.js';
export type { CommandStageRunnerOptions } from './goal/command-stage-runner.js';
export { createCommandStageRunner } from './goal/command-stage-runner.js';
export type { DeepReadonly, GoalDefinition } from './goal/contracts/define-goal.js';
export { defineGoal } from './goal/contracts/define-goal.js';
export type { LoopEvent, LoopEventDraft, LoopEventType } from './goal/contracts/events.js';
export { loopEventSchema } from './goal/contracts/events.js';
export type { FeedbackIssueView, FeedbackRead, FeedbackView } from './goal/contracts/feedback-view.js';
export { feedbackIssueViewSchema, feedbackViewSchema, readFeedbackView } from './goal/contracts/feedback-view.js';
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
  MAX_COMMAND_TIMEOUT_MS,
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
  ContinueDecision,
  DecideInput,
  LoopDecision,
  LoopStop,
  RetryDecision,
  StopDecision,
} from './goal/core/decide.js';
export { checkBudget, decideAfterEvaluation, decideLoop } from './goal/core/decide.js';
export type {
  BuiltinCheck,
  ClaimRecord,
  CriterionEvaluation,
  CriterionStatus,
  DeferredJudge,
  EvaluateOptions,
  EvaluationStatus,
  GoalEvaluation,
} from './goal/core/evaluate.js';
export { errorEvaluation, evaluateGoal } from './goal/core/evaluate.js';
export { EXIT_CODES, exitCodeFor } from './goal/core/exit-code.js';
// Pure core of the goal loop.
export type {
  CriterionFact,
  DocumentFact,
  EvaluationFacts,
  EvidenceFact,
  ExplicitVerdictsFact,
  OutputHistory,
  PathFact,
  PathRefusalReason,
  StageStatus,
} from './goal/core/facts.js';
export { progressFingerprint } from './goal/core/fingerprint.js';
export { formatEvent } from './goal/core/format-event.js';
export { formatResult } from './goal/core/format-result.js';
export { clampMaxIterations, DEFAULT_MAX_ITERATIONS, MAX_ITERATIONS_HARD_CAP } from './goal/core/max-iterations.js';
// How a metric_threshold criterion reads and compares its observed value (the review reads feedback metrics the same way).
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
// The goal loop shell.
export { GoalLoop } from './goal/goal-loop.js';
export { iterationEvaluationPath, readLatestIterationStarted } from './goal/loop-events.js';
export type { LoopResult, LoopStepResult } from './goal/loop-result.js';
export type { LoopStatus } from './goal/loop-status.js';
export { readLoopStatus } from './goal/loop-status.js';
export type { GoalLoopOptions } from './goal/options.js';
export { parseGoal } from './goal/parse-goal.js';
export type { IfStopped, LoopRunOptions } from './goal/run-options.js';
export type { RenderRunReportOptions } from './goal/run-report.js';
export { renderRunReport } from './goal/run-report.js';
export type { StageContext, StageRunner } from './goal/stage-runner.js';
// The goal loop as tools for agent hosts (MCP servers and other tool registries).
export type { EvaluateGoalInput, EvaluateGoalOutput } from './goal/tools/evaluate-goal-tool.js';
export { evaluateGoalInputSchema, evaluateGoalOutputSchema } from './goal/tools/evaluate-goal-tool.js';
export type { GoalLoopTools } from './goal/tools/goal-loop-tools.js';
export { createGoalLoopTools } from './goal/tools/goal-loop-tools.js';
export type { LoopStatusInput, LoopStatusOutput } from './goal/tools/loop-status-tool.js';
export { loopStatusInputSchema, loopStatusOutputSchema } from './goal/tools/loop-status-tool.js';
export type { GoalLoopToolsOptions, VerdictSource } from './goal/tools/options.js';
export type { SubmitVerdictInput, SubmitVerdictOutput } from './goal/tools/submit-verdict-tool.js';
export { submitVerdictInputSchema, submitVerdictOutputSchema } from './goal/tools/submit-verdict-tool.js';
export type { WriteVerdictOptions } from './goal/verdict-writer.js';
export { writeVerdict } from './goal/verdict-writer.js';
export { canonicalJson, hashJson } from './kit/hash.js';
export type { RunPaths } from './pipeline/run-paths.js';
export { runPaths } from './pipeline/run-paths.js';
export { mapAgentToStage } from './pipeline/stage-mapping.js';
export type { SdlcStageId, StageArtifactNames } from './pipeline/stage-presets.js';
export {
  FEEDBACK_STAGE,
  isSdlcStage,
  SDLC_OPTIONAL_STAGES,
  SDLC_STAGE_ARTIFACTS,
  SDLC_STAGES,
} from './pipeline/stage-presets.js';
export { stageOutcomeStatusSchema, stageStatusSchema } from './pipeline/stage-status.js';
export type { Clock } from './ports/clock.js';
export { createSystemClock, systemClock } from './ports/clock.js';
export type { CommandResult, CommandRunner, CommandRunOptions } from './ports/command-runner.js';
export type { ToolDefinition, ToolObjectSchema } from './ports/define-tool.js';
export { defineTool, toolError } from './ports/define-tool.js';
// Ports.
export type { FileGuard, FileStat, FileSystem } from './ports/file-system.js';
export type { ProcessProbe } from './ports/process-probe.js';
export type {
  StageContextOf,
  StageOutcome,
  StageOutcomeStatus,
  StageRunnerOf,
  StageRunReason,
} from './ports/stage-runner.js';
export type {
  Tool,
  ToolAnnotations,
  ToolCallContext,
  ToolError,
  ToolErrorCode,
  ToolIssue,
  ToolJsonSchema,
  ToolResult,
} from './ports/tool.js';
export type { SpanAttributes, SpanAttributeValue, SpanParentContext, Tracer, TraceSpan } from './ports/tracer.js';
export type { ContainmentOptions, RealpathCache } from './runtime/containment.js';
export { resolveContainedPath, resolveEvidencePath } from './runtime/containment.js';
export type { ListenerErrorHandler } from './runtime/event-feed.js';
export type { LockHolderState } from './runtime/lock-holder.js';
export type { RunLockStatus } from './runtime/lock-status.js';
