// A worker process: a BullMQ Worker whose job body is one GoalLoop.step() of the job's run, over the run
// directories in PostgreSQL. It shares no disk with the others: it works in an empty folder of its own. Started by
// scale-out.ts as `worker.ts <postgres url> <redis port>`; it reports what it does to its parent over IPC, for the
// example's summary and checks.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Job, UnrecoverableError, WaitingError, Worker } from 'bullmq';
import { isGoalLoopError, type LoopStepResult } from 'goal-loop';
import type { StopReason } from 'goal-loop/contracts';
import { openRunStore } from './database.js';
import { createStageRunner, loopFor, QUEUE_NAME, type StageRecord, WORKER_TIMINGS } from './pipeline.js';

/** A job: one run, from its first step to its decision. */
export interface RunJob {
  readonly runId: string;
}

/** What a job returns once its run reached a decision. */
export interface RunDecision {
  readonly runId: string;
  readonly stoppedOn: StopReason;
  readonly iteration: number;
}

/** What a worker tells the example. */
export type WorkerMessage =
  | { readonly type: 'ready'; readonly pid: number }
  | ({ readonly type: 'stage_started' } & StageRecord)
  | { readonly type: 'stepped'; readonly runId: string; readonly iteration: number; readonly done: boolean }
  | { readonly type: 'run_locked'; readonly runId: string; readonly message: string }
  | { readonly type: 'io_retried'; readonly runId: string; readonly message: string }
  | { readonly type: 'decided_before'; readonly runId: string }
  | { readonly type: 'stalled'; readonly jobId: string };

const [url, port] = process.argv.slice(2);
if (url === undefined || port === undefined) throw new Error('usage: worker.ts <postgres url> <redis port>');
process.chdir(mkdtempSync(join(tmpdir(), 'goal-loop-worker-')));
const { fs } = openRunStore(url);
const send = (message: WorkerMessage): void => {
  process.send?.(message);
};
const runner = createStageRunner(fs, (record) => send({ type: 'stage_started', ...record }));

// The job body. One job per run, for the run's whole life: a step that did not reach a decision moves the job back
// to wait (the next step goes to whichever worker is free, behind the other runs' steps), so a run is never in
// the queue twice and nothing needs to enqueue "the next step" exactly once. BullMQ delivers at least once: a job
// whose worker died after its run's last step but before the job completed comes back. A plain step() on a stopped
// run would open a new session (a second decision); `ifStopped: 'return-stop'` makes it return the recorded stop
// instead, decided under the run's lock and writing nothing, so even a duplicate racing the very step that stops
// the run gets that step's decision.
async function stepJob(job: Job<RunJob, RunDecision>, token?: string): Promise<RunDecision> {
  const { runId } = job.data;
  // Events this step appended: none when it only returned a stop recorded before (for the example's tally).
  let appended = 0;
  let step: LoopStepResult;
  try {
    step = await loopFor(fs, runId, runner, () => appended++).step({ ifStopped: 'return-stop' });
  } catch (error) {
    // Another worker holds the run: fail this attempt, and BullMQ retries it after its backoff.
    if (isGoalLoopError(error, 'RUN_LOCKED')) {
      send({ type: 'run_locked', runId, message: error.message });
      throw error;
    }
    // The database unreachable (a restart): nothing half-written remains, so the step is retried after the backoff.
    if (isGoalLoopError(error, 'IO_ERROR') && /EIO/.test(error.message)) {
      send({ type: 'io_retried', runId, message: error.message });
      throw error;
    }
    // Anything else is a fault no retry mends: fail the job for good, so the example reports it.
    throw new UnrecoverableError(`${runId}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (step.done && appended === 0) send({ type: 'decided_before', runId });
  else send({ type: 'stepped', runId, iteration: step.iteration, done: step.done });
  if (step.done) return { runId, stoppedOn: step.stoppedOn, iteration: step.iteration };
  await job.moveToWait(token);
  throw new WaitingError();
}

const worker = new Worker<RunJob, RunDecision>(QUEUE_NAME, stepJob, {
  connection: { host: '127.0.0.1', port: Number(port) },
  concurrency: 2,
  ...WORKER_TIMINGS,
});
worker.on('stalled', (jobId) => send({ type: 'stalled', jobId }));
worker.on('error', (error) => console.error(`worker ${process.pid}: ${error.message}`));

// The example ends a worker by disconnecting it: it finishes its jobs in hand and exits (so does an orphan).
process.on('disconnect', () => {
  void worker.close().finally(() => process.exit(0));
});
await worker.waitUntilReady();
send({ type: 'ready', pid: process.pid });
