// The worker processes: started with fork (the same tsx loader as the example), tallied from their IPC messages,
// some of them killed with SIGKILL in the middle of a stage.
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { preciseNow, type StageRecord } from './pipeline.js';
import type { WorkerMessage } from './worker.js';

/** What the workers reported, and the one that was killed. */
export interface FleetTally {
  steps: number;
  runLocked: number;
  ioRetried: number;
  decidedBefore: number;
  stalled: number;
  /** pid → the time its exit was seen, for every worker killed on purpose. */
  readonly killed: Map<number, number>;
  /** The stages the killed workers were in. */
  readonly killedIn: StageRecord[];
}

/** When to kill: the first stage the `workerIndex`-th worker starts once `afterSteps` steps ran, `delayMs` into it. */
export interface KillPlan {
  readonly workerIndex: number;
  readonly afterSteps: number;
  readonly delayMs: number;
}

const READY_TIMEOUT_MS = 30_000;
const STOP_GRACE_MS = 5_000;

/** Forks `count` workers on the database at `url` and Redis at `port`; `ready` resolves once every one is connected. */
export function startFleet(count: number, url: string, port: number, kills: readonly KillPlan[]) {
  const script = fileURLToPath(new URL('./worker.ts', import.meta.url));
  const tally: FleetTally = {
    steps: 0,
    runLocked: 0,
    ioRetried: 0,
    decidedBefore: 0,
    stalled: 0,
    killed: new Map(),
    killedIn: [],
  };
  const workers: ChildProcess[] = [];
  const exited = new Map<ChildProcess, Promise<void>>();
  const victims = new Set<ChildProcess>();
  const due = [...kills];

  const onMessage = (worker: ChildProcess, message: WorkerMessage): void => {
    if (message.type === 'stepped') tally.steps++;
    else if (message.type === 'run_locked') tally.runLocked++;
    else if (message.type === 'io_retried') tally.ioRetried++;
    else if (message.type === 'decided_before') tally.decidedBefore++;
    else if (message.type === 'stalled') tally.stalled++;
    else if (message.type === 'stage_started') {
      const kill = due.find((plan) => tally.steps >= plan.afterSteps && worker === workers[plan.workerIndex]);
      if (kill === undefined) return;
      due.splice(due.indexOf(kill), 1);
      victims.add(worker);
      const { type: _type, ...record } = message;
      tally.killedIn.push(record);
      setTimeout(() => worker.kill('SIGKILL'), kill.delayMs);
    }
  };

  const ready = Array.from({ length: count }, () => {
    const worker = fork(script, [url, String(port)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    workers.push(worker);
    worker.on('message', (message) => onMessage(worker, message as WorkerMessage));
    exited.set(
      worker,
      new Promise((resolve) =>
        worker.once('exit', () => {
          if (victims.has(worker) && worker.pid !== undefined) tally.killed.set(worker.pid, preciseNow());
          resolve();
        }),
      ),
    );
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`worker ${worker.pid} not ready in ${READY_TIMEOUT_MS} ms`)),
        READY_TIMEOUT_MS,
      );
      worker.on('message', (message) => {
        if ((message as WorkerMessage).type === 'ready') {
          clearTimeout(timer);
          resolve();
        }
      });
      worker.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`worker ${worker.pid} exited (${signal ?? `code ${code}`}) before it was ready`));
      });
    });
  });

  const alive = (worker: ChildProcess): boolean => worker.exitCode === null && worker.signalCode === null;
  return {
    tally,
    pids: () => workers.map((worker) => worker.pid ?? -1),
    ready: Promise.all(ready),
    /** Disconnects every worker (it finishes its jobs and exits), then kills whatever is still running. */
    async stop(): Promise<void> {
      for (const worker of workers) if (alive(worker) && worker.connected) worker.disconnect();
      const timer = setTimeout(() => this.kill(), STOP_GRACE_MS);
      await Promise.all(exited.values());
      clearTimeout(timer);
    },
    /** The synchronous last resort (on exit, on Ctrl-C). */
    kill(): void {
      for (const worker of workers) if (alive(worker)) worker.kill('SIGKILL');
    },
  };
}

/** The running workers. */
export type Fleet = ReturnType<typeof startFleet>;
