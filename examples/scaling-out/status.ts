// A third process, on no worker's disk: reads one run's status from the database alone and prints it as JSON.
// Started by scale-out.ts as `status.ts <postgres url> <run id>`.
import { readLoopStatus } from 'goal-loop';
import { openRunStore } from './database.js';
import { LOCK_TIMEOUT_MS, runDirOf } from './pipeline.js';

const [url, runId] = process.argv.slice(2);
if (url === undefined || runId === undefined) throw new Error('usage: status.ts <postgres url> <run id>');
const { pool, fs } = openRunStore(url);
try {
  const status = await readLoopStatus({ fs, runDir: runDirOf(runId), lockTimeoutMs: LOCK_TIMEOUT_MS });
  console.log(JSON.stringify({ runId, stop: status.stop, iteration: status.iteration, lock: status.lock }));
} finally {
  await pool.end();
}
