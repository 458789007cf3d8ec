// Jobs per second through BullMQ with two worker processes on a throwaway loopback redis-server: no-op jobs (the
// queue's own ceiling) and one goal-loop iteration per job.
import { type ChildProcess, fork } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { startRedisServer } from '../examples/scaling-out/redis-server.js';

const WORKER = fileURLToPath(new URL('./durable-worker.ts', import.meta.url));
const WORKERS = 2;

// Starts the workers, then times `count` jobs from their adding to the last one's completion.
async function rate(port: number, dir: string, mode: 'noop' | 'step', count: number): Promise<number> {
  const name = `durable-${mode}`;
  const queue = new Queue(name, { connection: { host: '127.0.0.1', port } });
  const children: ChildProcess[] = [];
  try {
    for (let i = 0; i < WORKERS; i++) {
      const work = join(dir, `${mode}-${i}`);
      await mkdir(work, { recursive: true });
      const child = fork(WORKER, [String(port), name, work, mode], { execArgv: process.execArgv, stdio: 'inherit' });
      children.push(child);
      await new Promise<void>((resolve, reject) => {
        child.once('message', () => resolve());
        child.once('exit', (code) => reject(new Error(`a worker exited with ${code} before it was ready`)));
      });
    }
    const warm = Math.min(20, count);
    await queue.addBulk(Array.from({ length: warm }, (_, i) => ({ name: 'warm', data: { i } })));
    await drained(queue, warm);
    const started = performance.now();
    await queue.addBulk(Array.from({ length: count }, (_, i) => ({ name: 'job', data: { i } })));
    await drained(queue, warm + count);
    return (count * 1000) / (performance.now() - started);
  } finally {
    for (const child of children) child.disconnect();
    await Promise.all(children.map((child) => new Promise((resolve) => child.once('exit', resolve))));
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
  }
}

// Resolves once `total` jobs completed; a failed job is an error.
async function drained(queue: Queue, total: number): Promise<void> {
  for (;;) {
    const counts = await queue.getJobCounts('completed', 'failed');
    if ((counts.failed ?? 0) > 0) throw new Error(`${counts.failed} bench jobs failed`);
    if ((counts.completed ?? 0) >= total) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** No-op jobs/s and loop steps/s at two workers, or why they could not be measured. */
export async function bullmqRates(
  dir: string,
): Promise<{ noop: number; steps: number; redis: string } | { skipped: string }> {
  let server: Awaited<ReturnType<typeof startRedisServer>>;
  try {
    server = await startRedisServer(dir);
  } catch (error) {
    return { skipped: `skipped: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}` };
  }
  try {
    const noop = await rate(server.port, dir, 'noop', 2_000);
    const steps = await rate(server.port, dir, 'step', 300);
    return { noop, steps, redis: server.version };
  } finally {
    await server.stop();
  }
}
