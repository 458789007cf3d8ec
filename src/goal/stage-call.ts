import { shownValue } from '../kit/shown-value.js';
import { stageOutcomeStatusSchema } from '../pipeline/stage-status.js';
import type { Clock } from '../ports/clock.js';
import type { FileSystem } from '../ports/file-system.js';
import type { StageOutcome, StageRunReason } from '../ports/stage-runner.js';
import { abortedBy, describeThrown } from '../runtime/host-call.js';
import { type JoinedSignal, joinSignals } from '../runtime/joined-signal.js';
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
  readonly clock: Clock;
  /** The loop's signal. */
  readonly signal: AbortSignal;
  /** The stage's time limit (none when undefined). */
  readonly timeoutMs: number | undefined;
  /** Keeps the run's lock fresh while the stage runs. */
  readonly heartbeat: <T>(work: (lost: AbortSignal) => Promise<T>) => Promise<T>;
  /** Gets the runner's outcome-to-be when the call stops waiting for it unsettled, so its cost is still recorded. */
  readonly lateCost: (late: Promise<StageOutcome>) => void;
}

/** An outcome (a timeout is a failed one), or an abort with the cost the runner still reported. @internal */
export type StageCallResult =
  | { readonly kind: 'done'; readonly outcome: StageOutcome; readonly thrown?: unknown }
  | { readonly kind: 'aborted'; readonly costUsd: number };

/** How long the loop waits for a runner's outcome once its signal fired (a later cost goes to {@link StageCall.lateCost}). @internal */
export const STAGE_ABORT_GRACE_MS = 1_000;

/** Races the runner against the signal and time limit, so one that never settles cannot hold the lock. @internal */
export async function callStage(call: StageCall): Promise<StageCallResult> {
  const { runner, stage, clock } = call;
  const timer = new AbortController();
  // The runner's signal fires on the loop's abort and on the timeout; released once the stage is no longer waited for.
  const joined = joinSignals([call.signal, timer.signal]);
  const { signal } = joined;
  let stageJoined: JoinedSignal | undefined;
  const context = {
    runDir: call.runDir,
    iteration: call.iteration,
    reason: call.reason,
    previousEvaluation: call.previousEvaluation,
    fs: call.fs,
    signal,
  };
  // Typed by a cast: it is set inside the heartbeat's callback, which the compiler's narrowing does not follow.
  let running = null as ReturnType<typeof settle> | null;
  // Set once the runner's outcome is part of the result; otherwise its cost, if any, comes late.
  let claimed = false;
  const stopWaiting = new AbortController();
  const timedOut =
    call.timeoutMs === undefined
      ? new Promise<never>(() => {})
      : clock.sleep(call.timeoutMs, stopWaiting.signal).then(
          () => 'timeout' as const,
          () => new Promise<never>(() => {}),
        );
  try {
    // The runner's signal also fires when the lock is lost: the stage stops once another loop may be running it.
    const first = await call.heartbeat((lost) => {
      stageJoined = joinSignals([signal, lost]);
      const stageSignal = stageJoined.signal;
      const started = settle(stage, () => runner.run(stage, { ...context, signal: stageSignal }));
      running = started;
      return Promise.race([started, timedOut, abortedBy(stageSignal, stopWaiting.signal)]);
    });
    claimed = first !== 'timeout' && first !== 'aborted';
    if (first !== 'timeout' && first !== 'aborted' && !call.signal.aborted) return { kind: 'done', ...first };
    if (first === 'timeout') timer.abort(new Error(`stage ${stage} timed out after ${call.timeoutMs} ms`));
    const late = running === null ? null : await graced(running, clock);
    claimed = late !== null;
    const costUsd = late === null ? 0 : (late.outcome.costUsd ?? 0);
    if (call.signal.aborted) return { kind: 'aborted', costUsd };
    const cost = costUsd > 0 ? { costUsd } : {};
    return {
      kind: 'done',
      outcome: {
        status: 'failed',
        ...cost,
        detail: `Stage ${stage} timed out after ${call.timeoutMs} ms; its signal was aborted.`,
      },
    };
  } finally {
    stopWaiting.abort();
    joined.release();
    stageJoined?.release();
    // Unclaimed (past the grace, or the lock lost mid-stage): the runner's outcome is watched for a late cost.
    if (!claimed && running !== null) call.lateCost(running.then((settled) => settled.outcome));
  }
}

// The runner's outcome if it settles within the grace, else null.
function graced<T>(running: Promise<T>, clock: Clock): Promise<T | null> {
  return Promise.race([running, clock.sleep(STAGE_ABORT_GRACE_MS).then(() => null)]);
}

// The runner's outcome, checked; a throw becomes a failed stage (the thrown value kept for its span).
async function settle(
  stage: string,
  run: () => Promise<unknown>,
): Promise<{ outcome: StageOutcome; thrown?: unknown }> {
  try {
    return { outcome: checkStageOutcome(stage, await run()) };
  } catch (error) {
    return { outcome: { status: 'failed', detail: `The stage runner threw: ${describeThrown(error)}` }, thrown: error };
  }
}

const OUTCOME_STATUSES: ReadonlySet<string> = new Set(stageOutcomeStatusSchema.options);

/** A wrong shape becomes a failed stage naming the field, never a silent pass. @internal */
function checkStageOutcome(stage: string, outcome: unknown): StageOutcome {
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
      problems.push(`costUsd must be a finite number ≥ 0 (got ${shownValue(value.costUsd)})`);
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
