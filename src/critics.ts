// goal-loop/critics: staged critics — a critic after each stage, budgets that always advance, and critic metrics.
// What generators and critics return, the trace, outcomes and labels (schemas and types) are in goal-loop/contracts.

export type { ExecutionTrace, StagedResult } from './critics/contracts/result.js';
export type { CalibrationReport } from './critics/core/calibration.js';
export { calibrationReport, sampleForCalibration } from './critics/core/calibration.js';
export type { CriticMetricsOptions } from './critics/core/metrics.js';
export { computeCriticMetrics } from './critics/core/metrics.js';
export type { CriticMetrics } from './critics/core/metrics-types.js';
export { renderCriticReport } from './critics/core/report.js';
export type { CriticStandingOptions, StandingReport } from './critics/core/standing.js';
export { criticStanding } from './critics/core/standing.js';
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
