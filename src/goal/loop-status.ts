import { z } from 'zod';
import { type Issue, refuseInvalidOptions } from '../errors.js';
import { runPaths } from '../pipeline/run-paths.js';
import { type Clock, systemClock } from '../ports/clock.js';
import type { FileSystem } from '../ports/file-system.js';
import { createJsonStore } from '../runtime/json-store.js';
import { findLastRecord } from '../runtime/jsonl-log.js';
import { type RunLockStatus, readLockStatus } from '../runtime/lock-status.js';
import { DEFAULT_LOCK_TIMEOUT_MS } from '../runtime/unit-of-work.js';
import type { LoopPhase, LoopState } from './contracts/loop-state.js';
import { loopStateSchema } from './contracts/loop-state.js';
import { type StopReason, stopReasonSchema } from './contracts/stop-reason.js';
import { consumingIteration } from './core/claims.js';
import type { GoalEvaluation } from './core/evaluate.js';
import { askedJudges } from './core/transitions.js';
import { pendingLateCostUsd } from './late-costs.js';
import { readLatestEvaluation, readLatestIterationStarted } from './loop-events.js';
import { readMetricsReading } from './metrics-read.js';
import { containRunPaths } from './run-files.js';

/**
 * A run's loop as persisted, as plain data for `status` commands.
 *
 * @public
 */
export interface LoopStatus {
  /** False when no loop has run in this run directory (then the rest is empty). */
  readonly exists: boolean;
  readonly goalId: string | null;
  /** The run-wide iteration counter. */
  readonly iteration: number;
  readonly phase: LoopPhase | null;
  /** The current (or last) session. */
  readonly session: {
    readonly index: number;
    readonly startedAtIteration: number;
    readonly maxIterations: number;
    readonly iterations: number;
  } | null;
  /** The stop of the last session, when it ended; `null` while a session is open (running, paused or crashed). */
  readonly stop: { readonly stoppedOn: StopReason; readonly reason: string; readonly iteration: number } | null;
  /** While the session is open: the stop that paused it (an abort, a goal change awaiting `acceptGoalChange`). */
  readonly paused: { readonly stoppedOn: StopReason; readonly reason: string } | null;
  /** Stages not passed yet, in pipeline order as recorded. */
  readonly pendingStages: readonly string[];
  /** While the iteration's stages run: the first of them not finished yet. */
  readonly currentStage: string | null;
  readonly stageStatus: Readonly<LoopState['stage_status']>;
  /** The larger of loop-state.json's `spent_usd` and metrics.json's `cumulative_cost_usd`, as the loop counts it. */
  readonly spentUsd: number;
  /** USD in `<runDir>/spend-pending/` that the next session adds to `spentUsd` (costs reported too late). */
  readonly pendingLateCostUsd: number;
  /** The whole evaluation of the latest evaluated iteration (`iterations/<n>/evaluation.json`), when there is one. */
  readonly lastEvaluation: GoalEvaluation | null;
  /** After an `ask_user` stop for judges: the criteria to answer and the iteration `writeVerdict` stamps. */
  readonly awaitingVerdicts: { readonly criterionIds: readonly string[]; readonly iteration: number } | null;
  /** The run's lock as it stands (read, never taken); `holder: 'gone'` or no lock while open means crashed. */
  readonly lock: RunLockStatus | null;
  /** What the loop would refuse to run on (an invalid metrics.json, an unreadable loop.lock), each at its path. */
  readonly issues: readonly Issue[];
}

// Every option has an entry (checked against the parameter's type), so a key outside it is a misspelling.
const optionShape = {
  fs: z.custom((value) => typeof (value as { readText?: unknown } | null)?.readText === 'function', {
    message: 'fs must be a FileSystem',
  }),
  runDir: z.string().min(1),
  clock: z
    .custom((value) => typeof (value as { now?: unknown } | null)?.now === 'function', {
      message: 'clock must be a Clock (with now())',
    })
    .optional(),
  lockTimeoutMs: z.int().min(1).optional(),
} satisfies Record<keyof Parameters<typeof readLoopStatus>[0], z.ZodType>;

/**
 * Reads a run's loop as persisted, with its lock, writing nothing (safe while a loop runs). A corrupt
 * loop-state.json is `STATE_CORRUPT`; an invalid metrics.json or loop.lock is reported in `issues`.
 *
 * @example
 * ```ts
 * const status = await readLoopStatus({ fs, runDir: '.goal-loop/runs/r-42' });
 * console.log(status.phase, status.stop?.stoppedOn, status.lastEvaluation?.reason);
 * if (status.stop === null && status.lock?.holder === 'gone') console.log('crashed: run again to resume');
 * ```
 * @public
 */
export async function readLoopStatus(options: {
  readonly fs: FileSystem;
  readonly runDir: string;
  /** What the lock's heartbeat age is measured against (default: the system clock). */
  readonly clock?: Clock;
  /** The `lockTimeoutMs` of the loop that would resume the run (default: GoalLoop's). */
  readonly lockTimeoutMs?: number;
}): Promise<LoopStatus> {
  refuseInvalidOptions('readLoopStatus', optionShape, options);
  const { fs, runDir, clock = systemClock, lockTimeoutMs = DEFAULT_LOCK_TIMEOUT_MS } = options;
  const paths = await containRunPaths(fs, runPaths(runDir));
  const [state, latest, lastStop, lock] = await Promise.all([
    createJsonStore(fs, paths.state, loopStateSchema).load(),
    readLatestIterationStarted(fs, paths.events),
    findLastRecord(fs, paths.events, (record) =>
      record.type === 'loop_blocked' || record.type === 'loop_completed' || record.type === 'loop_resumed'
        ? record
        : null,
    ),
    readLockStatus(fs, paths.lock, clock.now(), lockTimeoutMs),
  ]);
  const iteration = Math.max(state?.iteration ?? 0, latest ?? 0);
  const [lastEvaluation, pendingLateCost, metrics] = await Promise.all([
    readLatestEvaluation(fs, paths.runDir, iteration),
    pendingLateCostUsd(fs, paths.runDir, state?.late_costs?.folded),
    readMetricsReading(fs, paths.metrics),
  ]);
  const spentUsd = Math.max(state?.spent_usd ?? 0, metrics.spentUsd ?? 0);
  const awaitingVerdicts = awaitingOf(state, latest, lastEvaluation);
  const read = { spentUsd, pendingLateCostUsd: pendingLateCost, lastEvaluation, awaitingVerdicts, lock: lock.lock };
  const issues = [...metrics.issues, ...lock.issues];
  if (state === null) {
    const none = { goalId: null, iteration, phase: null, session: null, stop: null, paused: null, pendingStages: [] };
    return { exists: latest !== null, ...none, currentStage: null, stageStatus: {}, ...read, issues };
  }
  const { session, stop } = state;
  return {
    exists: true,
    goalId: state.goal_id,
    iteration,
    phase: state.phase,
    session:
      session === null
        ? null
        : {
            index: session.index,
            startedAtIteration: session.started_at_iteration,
            maxIterations: session.max_iterations,
            iterations: session.iterations,
          },
    stop: stop === null ? null : { stoppedOn: stop.stopped_on, reason: stop.reason, iteration: stop.iteration },
    paused: state.phase !== 'stopped' && lastStop?.type === 'loop_blocked' ? pausedBy(lastStop) : null,
    pendingStages: Object.entries(state.stage_status)
      .filter(([, status]) => status !== 'passed')
      .map(([stage]) => stage),
    currentStage: currentStageOf(state),
    stageStatus: state.stage_status,
    ...read,
    issues,
  };
}

// The stage in flight while stages run: the first of the iteration's stages with no outcome yet.
function currentStageOf(state: LoopState): string | null {
  if (state.phase !== 'running_stages') return null;
  const done = new Set(state.completed_stages.map((completed) => completed.stage));
  return state.iteration_stages.find((stage) => !done.has(stage)) ?? null;
}

// The stop recorded by a `loop_blocked` event, when its fields are readable.
function pausedBy(event: Record<string, unknown>): LoopStatus['paused'] {
  const parsed = stopReasonSchema.safeParse(event.stopped_on);
  if (!parsed.success) return null;
  return { stoppedOn: parsed.data, reason: typeof event.reason === 'string' ? event.reason : '' };
}

// What of an evaluation file names the judges it asks about (the file is read as written, not trusted).
const judgesView = z.looseObject({
  criteria: z.array(z.looseObject({ id: z.string(), kind: z.string(), status: z.string() })),
  deferredJudges: z.array(z.looseObject({ criterionId: z.string() })).optional(),
});

// The judges an ask_user stop waits for, and the stamp their verdicts get.
function awaitingOf(
  state: LoopState | null,
  latest: number | null,
  evaluation: GoalEvaluation | null,
): LoopStatus['awaitingVerdicts'] {
  const view = judgesView.safeParse(evaluation);
  if (state?.stop?.stopped_on !== 'ask_user' || !view.success) return null;
  const criterionIds = askedJudges(view.data);
  return criterionIds.length === 0 ? null : { criterionIds, iteration: consumingIteration(state, latest) };
}
