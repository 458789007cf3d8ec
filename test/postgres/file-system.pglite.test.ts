import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPostgresFileSystem } from '../../src/postgres.js';
import { describeFileSystemConformance } from '../../src/testing.js';
import { describeGuardedLock } from './guarded-lock-cases.js';
import { usePglite } from './pglite.js';

// The Postgres filesystem on PGlite (Postgres in WASM): the port's conformance suite, the run lock's guarded
// takeover and fencing, and the versioned schema. One database for the file: starting one takes seconds.
const pglite = usePglite();

describeFileSystemConformance(
  'postgres (PGlite)',
  async () => ({ fs: pglite.fresh({ maxReadBytes: 4096 }), maxReadBytes: 4096 }),
  { describe, it, beforeEach, afterEach },
);

describeGuardedLock('PGlite', () => pglite.fresh());

describe('the schema', () => {
  it('is made once and recorded by version; a second filesystem migrates nothing again', async () => {
    await pglite.fresh().writeText('a.txt', 'x');
    await pglite.fresh().writeText('b.txt', 'y');
    const { rows } = await pglite.db().query<{ version: number }>('SELECT version FROM goal_loop_schema_versions');
    expect(rows).toEqual([{ version: 1 }]);
  });

  it('refuses a database whose schema is newer than this version knows, naming the path', async () => {
    await pglite.fresh().writeText('made.txt', 'the schema exists');
    await pglite.db().query('INSERT INTO goal_loop_schema_versions (version) VALUES (99)');
    try {
      await expect(pglite.fresh().readText('a.txt')).rejects.toMatchObject({
        code: 'IO_ERROR',
        message: expect.stringMatching(/read "a\.txt" failed: ESCHEMA/),
      });
    } finally {
      await pglite.db().query('DELETE FROM goal_loop_schema_versions WHERE version = 99');
    }
  });

  it('keeps roots apart, and refuses a path that leads out of its root', async () => {
    const client = pglite.db();
    const a = createPostgresFileSystem({ client, root: '/apart/a' });
    const b = createPostgresFileSystem({ client, root: '/apart/b' });
    await a.writeText('run/state.json', '{"a":1}');
    expect(await b.readText('run/state.json')).toBeNull();
    await expect(a.readText('../b/run/state.json')).rejects.toMatchObject({ code: 'IO_ERROR' });
    await expect(a.writeText('/apart/b/x', 'x')).rejects.toMatchObject({ code: 'IO_ERROR' });
    expect(await a.realpath('../b')).toBe('../b');
    expect(() => createPostgresFileSystem({ client, root: 'relative' })).toThrow(/root/);
  });
});
