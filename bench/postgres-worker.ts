// One bench worker process: `steps` fresh runs of a three-stage no-op pipeline, one GoalLoop.step() each (lock,
// session, stages, evaluation, commit, release), on PostgreSQL (`pg <url>`) or on the Node filesystem
// (`node <dir>`). Prints when its timed steps started and ended (one clock: every process runs on this machine).
import pg from 'pg';
import { createNodeFileSystem } from '../src/node.js';
import type { FileSystem } from '../src/ports/file-system.js';
import { createPostgresFileSystem } from '../src/postgres.js';
import { freshRunStep } from './postgres-step.js';

const [kind, target, name, count] = process.argv.slice(2);
if (kind === undefined || target === undefined || name === undefined || count === undefined)
  throw new Error('usage: postgres-worker.ts pg|node <url|dir> <worker name> <steps>');
const pool = kind === 'pg' ? new pg.Pool({ connectionString: target, max: 2 }) : null;
const fs: FileSystem =
  pool === null ? createNodeFileSystem(target) : createPostgresFileSystem({ client: pool, root: '/bench' });
const now = () => performance.timeOrigin + performance.now();

// Warm-up: connections, the schema, the JIT.
for (let i = 0; i < 3; i++) await freshRunStep(fs, `runs/${name}/warm-${i}`);
const start = now();
for (let i = 0; i < Number(count); i++) await freshRunStep(fs, `runs/${name}/r-${i}`);
console.log(JSON.stringify({ start, end: now() }));
await pool?.end();
