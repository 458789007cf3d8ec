// goal-loop/critics: staged critics — a critic after each stage, budgets that always advance, and critic metrics.

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
  EscalationReason,
  GeneratedRecord,
  JudgedRecord,
  RouteAction,
  TraceRecord,
} from './critics/contracts/trace.js';
export { escalationReasonSchema, routeActionSchema, traceRecordSchema } from './critics/contracts/trace.js';
export type {
  AgreementFigure,
  CalibrationItem,
  CalibrationReport,
  CalibrationSample,
  CriticCalibration,
} from './critics/core/calibration.js';
export { calibrationReport, sampleForCalibration } from './critics/core/calibration.js';
export { CRITIC_HEALTH_BANDS } from './critics/core/health-flags.js';
export type { CriticMetricsOptions } from './critics/core/metrics.js';
export { computeCriticMetrics } from './critics/core/metrics.js';
export type {
  CriticMetrics,
  CriticRoi,
  HealthFlag,
  OutcomeSummary,
  OverallMetrics,
  ShiftLeftEntry,
  StageMetrics,
} from './critics/core/metrics-types.js';
export { renderCriticReport } from './critics/core/report.js';
export type { CriticVariant, OnBudgetSpent } from './critics/core/route.js';
export type { CriticStanding, CriticStandingOptions, StandingReport } from './critics/core/standing.js';
export { criticStanding } from './critics/core/standing.js';
export type { Standing } from './critics/core/standing-gate.js';
export type { CriticsStageRunnerOptions } from './critics/critics-stage-runner.js';
export { createCriticsStageRunner } from './critics/critics-stage-runner.js';
export type { StagedStepResult } from './critics/execution.js';
export type {
  Critic,
  CriticInput,
  Generator,
  GeneratorFeedback,
  GeneratorInput,
  StageDefinition,
  StagedPipelineOptions,
} from './critics/options.js';
export type { ExecutionRequest } from './critics/staged-pipeline.js';
export { StagedPipeline } from './critics/staged-pipeline.js';
export type { ProbationOptions } from './critics/standing-options.js';
// The shared types this entry's signatures use, so its declarations stand alone.
export type { Issue, ParseResult } from './errors.js';
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
  GoalEvaluation,
  GoalStatus,
  goalStatusSchema,
  ListenerErrorHandler,
  SignalKind,
  SpanAttributes,
  SpanAttributeValue,
  SpanParentContext,
  StageContext,
  StageContextOf,
  StageOutcome,
  StageOutcomeStatus,
  StageRunner,
  StageRunnerOf,
  StageRunReason,
  stageOutcomeStatusSchema,
  Tracer,
  TraceSpan,
} from './index.js';
export type { Clock } from './ports/clock.js';
export type { FileGuard, FileStat, FileSystem } from './ports/file-system.js';
export type { ProcessProbe } from './ports/process-probe.js';
