// Scaling out on a real queue: BullMQ over a redis-server this example starts on a free loopback port, 20 runs
// on a shared filesystem (a temp folder), and 3 worker processes whose job body is one GoalLoop.step(). One
// worker is killed with SIGKILL in the middle of a stage: BullMQ's stalled check hands its job to another worker,
// which gets RUN_LOCKED (BullMQ retries it with backoff) until the dead worker's run lock goes stale, takes it
// over and resumes the run. Then it checks, from what the runs left on disk, that every run reached its decision
// exactly once, that no iteration was counted twice and that no two workers ever ran one run's stages at once.
// Exits non-zero, saying why, otherwise.
import { rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { tempProject } from '../shared.js';
import { type Fleet, startFleet } from './fleet.js';
import { allPlans, JOB_OPTIONS, LOCK_TIMEOUT_MS, preciseNow, QUEUE_NAME, RUN_COUNT } from './pipeline.js';
import { type RedisServer, startRedisServer } from './redis-server.js';
import { verifyRuns } from './verify.js';
import type { RunDecision, RunJob } from './worker.js';

const WORKERS = 3;
const DEADLINE_MS = 45_000;
const started = preciseNow();
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

const project = await tempProject('scaling-out');
let redis: RedisServer | undefined;
let fleet: Fleet | undefined;
// Whatever ends this process (an error, Ctrl-C) ends its redis-server and workers too.
const killAll = (): void => {
  fleet?.kill();
  redis?.kill();
};
process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    killAll();
    console.error(`\n${signal}: redis-server and the workers stopped, ${project.root} removed`);
    rmSync(project.root, { recursive: true, force: true });
    process.exit(130);
  });

let problems: string[] = [];
try {
  redis = await startRedisServer(project.root);
  const connection = { host: '127.0.0.1', port: redis.port };
  console.log(`redis-server ${redis.version} on 127.0.0.1:${redis.port}; runs in ${project.root}`);
  await mkdir(join(project.root, 'runs'), { recursive: true });

  // The producer: one job per run, its id the run's id (enqueueing a run twice is a no-op).
  const queue = new Queue<RunJob, RunDecision>(QUEUE_NAME, { connection });
  await queue.addBulk(
    allPlans().map((plan) => ({
      name: 'run',
      data: { runId: plan.runId },
      opts: { jobId: plan.runId, ...JOB_OPTIONS },
    })),
  );
  fleet = startFleet(WORKERS, project.root, redis.port, { workerIndex: 1, afterSteps: 8, delayMs: 20 });
  await fleet.ready;
  console.log(
    `${RUN_COUNT} runs enqueued; workers ${fleet.pids().join(', ')} ready after ${seconds(preciseNow() - started)}`,
  );

  // Until every job completed or failed for good.
  for (;;) {
    const counts = await queue.getJobCounts('completed', 'failed');
    if ((counts.completed ?? 0) + (counts.failed ?? 0) >= RUN_COUNT) break;
    if (preciseNow() - started > DEADLINE_MS) {
      problems.push(`not every run finished in ${seconds(DEADLINE_MS)}: ${JSON.stringify(await queue.getJobCounts())}`);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  for (const job of await queue.getFailed()) problems.push(`${job.id}: the job failed: ${job.failedReason}`);
  // BullMQ's record agrees: each run's job completed once, with the run's decision.
  const expected = new Map(allPlans().map((plan) => [plan.runId, plan.expected.stoppedOn]));
  for (const job of await queue.getCompleted())
    if (job.returnvalue?.runId !== job.id || job.returnvalue.stoppedOn !== expected.get(job.id ?? ''))
      problems.push(`${job.id}: the job completed with ${JSON.stringify(job.returnvalue)}`);
  await fleet.stop();
  await queue.close();

  const { tally } = fleet;
  const report = await verifyRuns(project.root, tally.killed);
  problems.push(...report.problems);
  const decisions = [...report.decisions].map(([stop, count]) => `${count} ${stop}`).join(', ');
  console.log(`\n${RUN_COUNT} runs on ${WORKERS} worker processes (BullMQ, concurrency 2 each): ${decisions}`);
  console.log(
    `  ${tally.steps} step() calls returned, ${report.iterations} iterations, ${report.stageRuns} stage runs (${report.interrupted.length} cut off)`,
  );
  console.log(
    `  ${tally.runLocked} RUN_LOCKED step(s) retried by BullMQ's backoff; ${tally.stalled} stalled job(s) brought back`,
  );
  for (const { cut, next } of report.interrupted)
    console.log(
      `  killed worker ${cut.pid} (SIGKILL) in ${cut.stage} of ${cut.runId} (iteration ${cut.iteration}); ` +
        (next === null
          ? 'no worker went on'
          : `pid ${next.pid} went on with ${next.stage} ${seconds(next.start - cut.end)} later (a lock goes stale ${seconds(LOCK_TIMEOUT_MS)} after its last heartbeat)`),
    );
  console.log(`  ${report.takeovers} stale lock(s) taken over`);
  if (tally.decidedBefore > 0)
    console.log(`  ${tally.decidedBefore} job(s) delivered again after their run's decision`);
} catch (error) {
  problems = [...problems, `the example failed: ${error instanceof Error ? (error.stack ?? error.message) : error}`];
} finally {
  fleet?.kill();
  await redis?.stop();
}

console.log(`  total ${seconds(preciseNow() - started)}`);
if (problems.length === 0) {
  console.log('\nevery run decided once, no iteration counted twice, no stage of a run on two workers at once');
  await project.dispose();
} else {
  console.error(`\nFAILED (${problems.length} problem(s)); the runs are kept in ${project.root}:`);
  for (const problem of problems) console.error(`  - ${problem}`);
  process.exitCode = 1;
}
