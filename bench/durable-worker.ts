// One BullMQ worker process of durable-queue.ts: `durable-worker.ts <redis port> <queue> <dir> noop|step`, one job at
// a time; a `step` job is one iteration of a fresh one-stage run on the Node filesystem in <dir>.
import { Worker } from 'bullmq';
import { createNodeFileSystem } from '../src/node/file-system.js';
import { iterate } from './durable-fixture.js';

const [port, queue, dir, mode] = process.argv.slice(2);
if (port === undefined || queue === undefined || dir === undefined || mode === undefined)
  throw new Error('usage: durable-worker.ts <redis port> <queue> <dir> noop|step');
const fs = createNodeFileSystem(dir);
const worker = new Worker(queue, async () => (mode === 'step' ? iterate(fs) : undefined), {
  connection: { host: '127.0.0.1', port: Number(port) },
  concurrency: 1,
});
process.on('disconnect', () => {
  void worker.close().finally(() => process.exit(0));
});
await worker.waitUntilReady();
process.send?.('ready');
