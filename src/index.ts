// goal-loop: the goal loop (contracts, pure evaluation and decisions, the GoalLoop shell) and the shared types:
// errors, ports, the system clock, stage presets. No Node built-ins, no execa, and none of the other capabilities.

export { GoalLoopError, isGoalLoopError, formatIssue, formatJsonPath } from './errors.js';
export type { GoalLoopErrorCode, Issue } from './errors.js';

// Contracts (zod schemas; types inferred from them).
export type { ParseResult } from './errors.js';
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
} from './goal/contracts/goal.js';
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
} from './goal/contracts/goal.js';
export { verdictSchema, verdictFileSchema, parseVerdictFile } from './goal/contracts/verdict.js';
export type { Verdict, ParsedVerdicts, ParseVerdictOptions } from './goal/contracts/verdict.js';
export {
  goalStatusSchema,
  agentCriterionEntrySchema,
  goalEvaluationSectionSchema,
} from './goal/contracts/goal-evaluation.js';
export type { GoalStatus, AgentCriterionEntry, GoalEvaluationSection } from './goal/contracts/goal-evaluation.js';
export { feedbackViewSchema, feedbackIssueViewSchema, readFeedbackView } from './goal/contracts/feedback-view.js';
export type { FeedbackView, FeedbackIssueView, FeedbackRead } from './goal/contracts/feedback-view.js';
export { loopEventSchema, stopReasonSchema } from './goal/contracts/events.js';
export { stageOutcomeStatusSchema, stageStatusSchema } from './pipeline/stage-status.js';
export type { LoopEvent, LoopEventType, LoopEventDraft } from './goal/contracts/events.js';
export { loopStateSchema } from './goal/contracts/loop-state.js';
export type { LoopState, LoopPhase } from './goal/contracts/loop-state.js';

// Ports.
export type { FileSystem, FileStat } from './ports/file-system.js';
export type { CommandRunner, CommandRunOptions, CommandResult } from './ports/command-runner.js';
export type { Clock } from './ports/clock.js';
export { createSystemClock, systemClock } from './ports/clock.js';
export type {
  StageRunner,
  StageOutcome,
  StageOutcomeStatus,
  StageContext,
  StageRunReason,
} from './ports/stage-runner.js';

// Pure core of the goal loop.
export type {
  StageStatus,
  PathFact,
  DocumentFact,
  CriterionFact,
  EvidenceFact,
  ExplicitVerdictsFact,
  EvaluationFacts,
} from './goal/core/facts.js';
export { evaluateGoal, errorEvaluation } from './goal/core/evaluate.js';
export type {
  GoalEvaluation,
  EvaluationStatus,
  CriterionEvaluation,
  CriterionStatus,
  BuiltinCheck,
  ClaimRecord,
} from './goal/core/evaluate.js';
export { STATUS_PRECEDENCE, SIGNAL_STATUS, decideStatus } from './goal/core/precedence.js';
export type { SignalKind, SignalStatus, DecisionSignal, StatusDecision } from './goal/core/precedence.js';
export {
  decideAfterEvaluation,
  checkBudget,
  clampMaxIterations,
  DEFAULT_MAX_ITERATIONS,
  MAX_ITERATIONS_HARD_CAP,
} from './goal/core/decide.js';
export type { LoopDecision, StopDecision, RetryDecision, DecideInput } from './goal/core/decide.js';
export { STOP_REASONS, EXIT_CODES, exitCodeFor } from './goal/core/stop-reason.js';
export type { StopReason } from './goal/core/stop-reason.js';
export { progressFingerprint } from './goal/core/fingerprint.js';
export { canonicalJson, hashJson } from './kit/hash.js';
export { mapAgentToStage } from './pipeline/stage-mapping.js';
export {
  SDLC_STAGES,
  SDLC_OPTIONAL_STAGES,
  SDLC_STAGE_ARTIFACTS,
  FEEDBACK_STAGE,
  isSdlcStage,
} from './pipeline/stage-presets.js';
export type { SdlcStageId, StageArtifactNames } from './pipeline/stage-presets.js';

// The goal loop shell.
export { GoalLoop } from './goal/goal-loop.js';
export type { GoalLoopOptions } from './goal/options.js';
export type { LoopResult, LoopStepResult } from './goal/loop-result.js';
export { createCommandStageRunner } from './goal/command-stage-runner.js';
export type { CommandStageRunnerOptions } from './goal/command-stage-runner.js';
export { runPaths } from './pipeline/run-paths.js';
export type { RunPaths } from './pipeline/run-paths.js';
export { readLatestIterationStarted } from './persist/event-log.js';
export { resolveContainedPath, resolveEvidencePath } from './persist/containment.js';
export type { ContainmentOptions, RealpathCache } from './persist/containment.js';
