// The pipeline every worker runs, the plan of each run, and the timings the example shortens so a killed worker's
// runs are recovered in seconds rather than the defaults' minutes.
import { type FileSystem, GoalLoop, type LoopEvent, type StageRunner } from 'goal-loop';
import type { StopReason } from 'goal-loop/contracts';

export const STAGES = ['02-requirements', '07-code', '08-testing'] as const;
export const RUN_COUNT = 20;
export const QUEUE_NAME = 'goal-loop-steps';

/** The goal loop's run lock: stale after 3 s without a heartbeat (the holder beats every second). */
export const LOCK_TIMEOUT_MS = 3_000;

/**
 * BullMQ's own job lock: a job whose worker stops renewing it for a second is found by the stalled check (every
 * half second) and moved back to wait. A job may stall a few times (a killed worker, a starved event loop).
 */
export const WORKER_TIMINGS = { lockDuration: 1_000, stalledInterval: 500, maxStalledCount: 5 } as const;

/**
 * A `RUN_LOCKED` step fails its job, and BullMQ retries it after 0.2, 0.4, 0.8 … s (±50 % jitter), long enough
 * to outlast a stale lock, and so is a step the database was unreachable for (a restart); only these failures count
 * as attempts (moving a job back to wait for its next step does not), so 30 attempts are a generous bound that
 * still ends a run that never gets its lock.
 */
export const JOB_OPTIONS = {
  attempts: 30,
  backoff: { type: 'exponential', delay: 200, jitter: 0.5 },
} as const;

/** What one run's stages do: a stage fails up to (and including) `failsUntil`, and may block at `blocksAt`. */
export interface RunPlan {
  readonly runId: string;
  readonly failsUntil: Readonly<Partial<Record<(typeof STAGES)[number], number>>>;
  readonly blocksAt: number | null;
  readonly expected: { readonly stoppedOn: StopReason; readonly iterations: number };
}

/**
 * The plan of run `index` (1-based): some runs need one retry, a few two, every tenth blocks on its tests. A stage
 * fails twice only after another stage's retry passed, so each iteration shows progress (the same failure twice
 * in a row would stop the run on `no_progress`).
 */
export function planFor(index: number): RunPlan {
  const failsUntil: Partial<Record<(typeof STAGES)[number], number>> = {};
  if (index % 3 === 0) failsUntil['07-code'] = 1;
  if (index % 2 === 0) failsUntil['08-testing'] = index % 6 === 0 ? 2 : 1;
  const blocksAt = index % 10 === 0 ? 2 : null;
  const lastFailure = Math.max(0, ...Object.values(failsUntil));
  const expected =
    blocksAt === null
      ? { stoppedOn: 'complete' as const, iterations: lastFailure + 1 }
      : { stoppedOn: 'blocked' as const, iterations: blocksAt };
  return { runId: `r-${String(index).padStart(2, '0')}`, failsUntil, blocksAt, expected };
}

/** The plans of all runs, in order. */
export const allPlans = (): RunPlan[] => Array.from({ length: RUN_COUNT }, (_, index) => planFor(index + 1));

export const runDirOf = (runId: string): string => `runs/${runId}`;
export const stageLogOf = (runId: string): string => `stage-log/${runId}.jsonl`;

/** One line of a run's stage log: a stage run starting or ending, on which worker process. */
export interface StageRecord {
  readonly runId: string;
  readonly stage: string;
  readonly iteration: number;
  readonly pid: number;
  readonly phase: 'start' | 'end';
  /** Milliseconds since the epoch, sub-millisecond precision (one clock: every process runs on this machine). */
  readonly at: number;
}

export const preciseNow = (): number => performance.timeOrigin + performance.now();

/**
 * The stage runner, as an agent would be: it takes a while (150–300 ms), and logs its start and end with the
 * worker's pid to the run's stage log, so the example can prove no two workers ever ran one run at once.
 * `onStart` lets the worker tell the example when it is mid-stage (the moment it is killed).
 */
export function createStageRunner(fs: FileSystem, onStart: (record: StageRecord) => void): StageRunner {
  const plans = new Map(allPlans().map((plan) => [runDirOf(plan.runId), plan]));
  // The log outlives a database restart: an append the restart cut off changed nothing and is made again.
  const log = async (record: StageRecord): Promise<void> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await fs.appendText(stageLogOf(record.runId), `${JSON.stringify(record)}\n`);
      } catch (error) {
        if (attempt >= 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  };
  return {
    async run(stage, context) {
      const plan = plans.get(context.runDir);
      if (plan === undefined) throw new Error(`${context.runDir} is not a run of this example`);
      const mark = { runId: plan.runId, stage, iteration: context.iteration, pid: process.pid };
      const start: StageRecord = { ...mark, phase: 'start', at: preciseNow() };
      await log(start);
      onStart(start);
      await new Promise((resolve) => setTimeout(resolve, 150 + ((context.iteration * 37 + stage.length * 11) % 150)));
      await log({ ...mark, phase: 'end', at: preciseNow() });
      if (stage === '08-testing' && plan.blocksAt === context.iteration)
        return { status: 'blocked', detail: 'the test environment is gone' };
      const fails = context.iteration <= (plan.failsUntil[stage as (typeof STAGES)[number]] ?? 0);
      return { status: fails ? 'failed' : 'passed', detail: `${stage} at iteration ${context.iteration}` };
    },
  };
}

/** The loop of one run, as every job builds it: same stages, same bounds, the shortened lock timeout. */
export function loopFor(
  fs: FileSystem,
  runId: string,
  runner: StageRunner,
  onEvent?: (event: LoopEvent) => void,
): GoalLoop {
  return new GoalLoop({
    fs,
    runDir: runDirOf(runId),
    stages: STAGES,
    runner,
    maxIterations: 4,
    lockTimeoutMs: LOCK_TIMEOUT_MS,
    ...(onEvent === undefined ? {} : { onEvent }),
  });
}
