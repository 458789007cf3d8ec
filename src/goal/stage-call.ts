import { stageOutcomeStatusSchema } from '../pipeline/stage-status.js';
import type { FileSystem } from '../ports/file-system.js';
import type { StageOutcome, StageRunReason } from '../ports/stage-runner.js';
import type { GoalEvaluation } from './core/evaluate.js';
import type { StageRunner } from './stage-runner.js';

/** What one call of the host's stage runner needs. @internal */
export interface StageCall {
  readonly runner: StageRunner;
  readonly stage: string;
  readonly runDir: string;
  readonly iteration: number;
  readonly reason: StageRunReason;
  readonly previousEvaluation: GoalEvaluation | null;
  readonly fs: FileSystem;
  readonly signal: AbortSignal;
  /** Keeps the run's lock fresh while the stage runs. */
  readonly heartbeat: <T>(work: () => Promise<T>) => Promise<T>;
}

/**
 * Calls the host's runner for one stage: a throw is a failed stage with the
 * error in its detail, a malformed outcome a failed stage naming the field,
 * and an abort `null` (the stage reruns when the loop resumes).
 *
 * @internal
 */
export async function callStage(call: StageCall): Promise<StageOutcome | null> {
  const { runner, stage, signal } = call;
  const context = {
    runDir: call.runDir,
    iteration: call.iteration,
    reason: call.reason,
    previousEvaluation: call.previousEvaluation,
    fs: call.fs,
    signal,
  };
  try {
    const outcome = await call.heartbeat(() => runner.run(stage, context));
    return signal.aborted ? null : checkStageOutcome(stage, outcome);
  } catch (error) {
    if (signal.aborted) return null;
    return {
      status: 'failed',
      detail: `The stage runner threw: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

const OUTCOME_STATUSES: ReadonlySet<string> = new Set(stageOutcomeStatusSchema.options);

/**
 * Checks what a host's stage runner returned; a wrong shape becomes a failed
 * stage whose detail names the field (never a silent pass).
 *
 * @internal
 */
export function checkStageOutcome(stage: string, outcome: unknown): StageOutcome {
  const value = outcome as Partial<StageOutcome> | null | undefined;
  const problems: string[] = [];
  if (typeof value !== 'object' || value === null) problems.push('the outcome must be an object');
  else {
    if (typeof value.status !== 'string' || !OUTCOME_STATUSES.has(value.status))
      problems.push(`status must be one of ${[...OUTCOME_STATUSES].join(', ')} (got ${JSON.stringify(value.status)})`);
    if (
      value.costUsd !== undefined &&
      (typeof value.costUsd !== 'number' || !Number.isFinite(value.costUsd) || value.costUsd < 0)
    )
      problems.push(`costUsd must be a finite number ≥ 0 (got ${JSON.stringify(value.costUsd)})`);
    if (value.detail !== undefined && typeof value.detail !== 'string') problems.push('detail must be a string');
  }
  if (problems.length === 0) return value as StageOutcome;
  const cost =
    typeof value?.costUsd === 'number' && Number.isFinite(value.costUsd) && value.costUsd > 0
      ? { costUsd: value.costUsd }
      : {};
  return {
    status: 'failed',
    ...cost,
    detail: `The stage runner for ${stage} returned an invalid outcome: ${problems.join('; ')}.`,
  };
}
