// Scaling out across machines, on one: BullMQ over a redis-server and the run directories in a PostgreSQL server,
// both started by this example on free loopback ports; 20 runs and 4 worker processes that share no disk (each
// works in an empty folder of its own) and whose job body is one GoalLoop.step(). Two workers are killed with
// SIGKILL in the middle of a stage, and the database is restarted once mid-run: BullMQ's stalled check hands a
// dead worker's job to another worker, which gets RUN_LOCKED (retried with backoff) until the dead worker's lock
// goes stale, takes it over and resumes the run; a step the restart cut off fails as an IO_ERROR that changed
// nothing and is retried. Then it checks, from what the runs left in the database, that every run reached its
// decision exactly once, that no iteration was counted twice, that no event was lost and that no two workers ever
// ran one run's stages at once; and a third process reads a run two workers raced for with readLoopStatus, from the
// database alone. Exits non-zero, saying why, otherwise.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { type PostgresServer, startPostgresServer } from '../../scripts/postgres-server.js';
import { tempProject } from '../shared.js';
import { openRunStore } from './database.js';
import { type Fleet, startFleet } from './fleet.js';
import { allPlans, JOB_OPTIONS, LOCK_TIMEOUT_MS, preciseNow, QUEUE_NAME, RUN_COUNT } from './pipeline.js';
import { type RedisServer, startRedisServer } from './redis-server.js';
import { verifyRuns } from './verify.js';
import type { RunDecision, RunJob } from './worker.js';

const WORKERS = 4;
const RESTART_AFTER_STEPS = 14;
const DEADLINE_MS = 120_000;
const started = preciseNow();
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

const project = await tempProject('scaling-out');
let redis: RedisServer | undefined;
let postgres: PostgresServer | undefined;
let fleet: Fleet | undefined;
// Whatever ends this process (an error, Ctrl-C) ends its servers and workers too.
const killAll = (): void => {
  fleet?.kill();
  redis?.kill();
};
process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    killAll();
    void postgres?.stop();
    console.error(`\n${signal}: the servers and the workers stopped, ${project.root} removed`);
    rmSync(project.root, { recursive: true, force: true });
    process.exit(130);
  });

let problems: string[] = [];
try {
  // Both settle before either is used, so a server that started is stopped even when the other could not start.
  const [redisStart, postgresStart] = await Promise.allSettled([startRedisServer(project.root), startPostgresServer()]);
  if (redisStart.status === 'fulfilled') redis = redisStart.value;
  if (postgresStart.status === 'fulfilled') postgres = postgresStart.value;
  if (redisStart.status === 'rejected') throw redisStart.reason;
  if (postgresStart.status === 'rejected') throw postgresStart.reason;
  [redis, postgres] = [redisStart.value, postgresStart.value];
  const connection = { host: '127.0.0.1', port: redis.port };
  console.log(`redis-server ${redis.version} on 127.0.0.1:${redis.port}; ${postgres.version} on ${postgres.url}`);
  const store = openRunStore(postgres.url);

  // The producer: one job per run, its id the run's id (enqueueing a run twice is a no-op).
  const queue = new Queue<RunJob, RunDecision>(QUEUE_NAME, { connection });
  await queue.addBulk(
    allPlans().map((plan) => ({
      name: 'run',
      data: { runId: plan.runId },
      opts: { jobId: plan.runId, ...JOB_OPTIONS },
    })),
  );
  fleet = startFleet(WORKERS, postgres.url, redis.port, [
    { workerIndex: 1, afterSteps: 6, delayMs: 20 },
    { workerIndex: 3, afterSteps: 20, delayMs: 40 },
  ]);
  await fleet.ready;
  console.log(
    `${RUN_COUNT} runs enqueued; workers ${fleet.pids().join(', ')} ready after ${seconds(preciseNow() - started)}`,
  );

  // Until every job completed or failed for good, restarting the database once on the way.
  let restartedAt: number | null = null;
  for (;;) {
    const counts = await queue.getJobCounts('completed', 'failed');
    if ((counts.completed ?? 0) + (counts.failed ?? 0) >= RUN_COUNT) break;
    if (restartedAt === null && fleet.tally.steps >= RESTART_AFTER_STEPS) {
      restartedAt = preciseNow();
      await postgres.restart();
      console.log(
        `  PostgreSQL restarted after ${fleet.tally.steps} steps (${seconds(preciseNow() - restartedAt)} down)`,
      );
    }
    if (preciseNow() - started > DEADLINE_MS) {
      problems.push(`not every run finished in ${seconds(DEADLINE_MS)}: ${JSON.stringify(await queue.getJobCounts())}`);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  if (restartedAt === null) problems.push('the database was never restarted: the runs ended first');
  for (const job of await queue.getFailed()) problems.push(`${job.id}: the job failed: ${job.failedReason}`);
  // BullMQ's record agrees: each run's job completed once, with the run's decision.
  const expected = new Map(allPlans().map((plan) => [plan.runId, plan.expected.stoppedOn]));
  for (const job of await queue.getCompleted())
    if (job.returnvalue?.runId !== job.id || job.returnvalue.stoppedOn !== expected.get(job.id ?? ''))
      problems.push(`${job.id}: the job completed with ${JSON.stringify(job.returnvalue)}`);
  await fleet.stop();
  await queue.close();

  const { tally } = fleet;
  const report = await verifyRuns(store.fs, tally.killed);
  problems.push(...report.problems);
  const decisions = [...report.decisions].map(([stop, count]) => `${count} ${stop}`).join(', ');
  console.log(`\n${RUN_COUNT} runs on ${WORKERS} worker processes (BullMQ, concurrency 2 each): ${decisions}`);
  console.log(
    `  ${tally.steps} step() calls returned, ${report.iterations} iterations, ${report.stageRuns} stage runs (${report.interrupted.length} cut off)`,
  );
  console.log(
    `  ${tally.runLocked} RUN_LOCKED and ${tally.ioRetried} database-unreachable step(s) retried by BullMQ's backoff; ${tally.stalled} stalled job(s) brought back`,
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

  // A third process reads a run two workers raced for (a killed worker's), from the database alone.
  const raced = report.interrupted[0]?.cut.runId;
  if (raced === undefined) problems.push('no run was raced for: no status to read');
  else {
    const script = fileURLToPath(new URL('./status.ts', import.meta.url));
    const printed = execFileSync(process.execPath, [...process.execArgv, script, postgres.url, raced], {
      encoding: 'utf8',
    });
    const status = JSON.parse(printed) as { stop: { stoppedOn: string } | null; iteration: number };
    console.log(
      `  readLoopStatus from another process: ${raced} stopped ${status.stop?.stoppedOn} at iteration ${status.iteration}`,
    );
    if (status.stop?.stoppedOn !== expected.get(raced))
      problems.push(`${raced}: readLoopStatus says ${JSON.stringify(status.stop)}, expected ${expected.get(raced)}`);
  }
  await store.pool.end();
} catch (error) {
  problems = [...problems, `the example failed: ${error instanceof Error ? (error.stack ?? error.message) : error}`];
} finally {
  fleet?.kill();
  await redis?.stop();
  await postgres?.stop();
}

console.log(`  total ${seconds(preciseNow() - started)}`);
if (problems.length === 0) {
  console.log(
    '\nevery run decided once, no iteration counted twice, nothing lost, no stage of a run on two workers at once',
  );
  await project.dispose();
} else {
  console.error(`\nFAILED (${problems.length} problem(s)); redis worked in ${project.root}:`);
  for (const problem of problems) console.error(`  - ${problem}`);
  process.exitCode = 1;
}
