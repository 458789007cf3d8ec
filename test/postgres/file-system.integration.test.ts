import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type PostgresServer, startPostgresServer } from '../../scripts/postgres-server.js';
import { createPostgresFileSystem } from '../../src/postgres.js';
import { describeFileSystemConformance } from '../../src/testing.js';
import { describeGuardedLock } from './guarded-lock-cases.js';

// The Postgres filesystem on a real server (Debian's postgresql, started on a free loopback port for this file):
// the port's conformance suite, the run lock's guarded takeover and fencing, and a server restart in between.
let server: PostgresServer;
let pool: pg.Pool;
beforeAll(async () => {
  server = await startPostgresServer();
  pool = new pg.Pool({ connectionString: server.url, max: 8 });
  // An idle connection the server ends (a restart) is an error event on the pool, not a crash.
  pool.on('error', () => undefined);
}, 120_000);
afterAll(async () => {
  await pool?.end();
  await server?.stop();
}, 60_000);

const fresh = (maxReadBytes?: number) =>
  createPostgresFileSystem({
    client: pool,
    root: `/t/${crypto.randomUUID()}`,
    ...(maxReadBytes ? { maxReadBytes } : {}),
  });

describeFileSystemConformance('postgres (server)', async () => ({ fs: fresh(4096), maxReadBytes: 4096 }), {
  describe,
  it,
  beforeEach,
  afterEach,
});

describeGuardedLock('a PostgreSQL server', () => fresh());

describe('a server restart', () => {
  it('loses nothing committed, and a statement cut off by it is an IO_ERROR, never a half-write', async () => {
    const fs = fresh();
    for (let n = 0; n < 20; n++) await fs.appendText('run/events.jsonl', `{"n":${n}}\n`);
    await fs.writeText('run/state.json', '{"v":1}');
    await server.restart();
    // The pool's connections were ended by the restart: the first statement may fail, and fails whole.
    await fs.readText('run/state.json').catch((error) => expect(error).toMatchObject({ code: 'IO_ERROR' }));
    expect(await fs.readText('run/state.json')).toBe('{"v":1}');
    expect((await fs.readText('run/events.jsonl'))?.trimEnd().split('\n')).toHaveLength(20);
  }, 120_000);
});
