// The Postgres filesystem: steps per second with 1, 2 and 4 worker processes on a real PostgreSQL server (started
// here on a free loopback port), against the same workers on the local Node filesystem, and one step's round trips
// to the database.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { startPostgresServer } from '../scripts/postgres-server.js';
import type { PostgresClient } from '../src/postgres.js';
import { createPostgresFileSystem } from '../src/postgres.js';
import { ratio, row } from './format.js';
import { freshRunStep } from './postgres-step.js';

const run = promisify(execFile);
const WORKER = fileURLToPath(new URL('./postgres-worker.ts', import.meta.url));
const STEPS = 30;

// Steps per second of `workers` processes at once, each stepping STEPS fresh runs: all steps over the span from the
// first timed start to the last end.
async function throughput(kind: 'pg' | 'node', target: string, workers: number, tag: string): Promise<number> {
  const spans = await Promise.all(
    Array.from({ length: workers }, async (_, index) => {
      const args = [...process.execArgv, WORKER, kind, target, `${tag}-${index}`, String(STEPS)];
      const { stdout } = await run(process.execPath, args, { encoding: 'utf8' });
      return JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as { start: number; end: number };
    }),
  );
  const span = Math.max(...spans.map((s) => s.end)) - Math.min(...spans.map((s) => s.start));
  return (workers * STEPS * 1000) / span;
}

// The statements one step of a fresh run sends (each is one round trip).
async function roundTrips(pool: pg.Pool): Promise<number> {
  let count = 0;
  const counting: PostgresClient = {
    query: (text, params) => {
      count++;
      return pool.query(text, params);
    },
  };
  const fs = createPostgresFileSystem({ client: counting, root: '/bench-round-trips' });
  await freshRunStep(fs, 'runs/warm');
  count = 0;
  await freshRunStep(fs, 'runs/counted');
  return count;
}

export async function benchPostgres(): Promise<void> {
  console.log('\nGoal loop on PostgreSQL: one step of a fresh 3-stage run per job, worker processes');
  const server = await startPostgresServer();
  const dir = await mkdtemp(join(tmpdir(), 'goal-loop-bench-pg-'));
  const pool = new pg.Pool({ connectionString: server.url, max: 2 });
  try {
    const trips = await roundTrips(pool);
    const local = await throughput('node', dir, 1, 'node');
    row('1 worker, local Node filesystem', `${local.toFixed(1)} steps/s`);
    let single = 0;
    for (const workers of [1, 2, 4]) {
      const rate = await throughput('pg', server.url, workers, `w${workers}`);
      if (workers === 1) single = rate;
      const note =
        workers === 1
          ? `${ratio(rate / local)} the local Node filesystem's rate`
          : `${ratio(rate / single)} the 1-worker rate (2 cores, shared with the server)`;
      row(
        `${workers} worker${workers === 1 ? '' : 's'}, PostgreSQL ${server.version.split(' ')[2]}`,
        `${rate.toFixed(1)} steps/s`,
        note,
      );
    }
    row('round trips to the database in one step', String(trips), 'one statement per FileSystem call');
  } finally {
    await pool.end();
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
