import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll } from 'vitest';
import type { FileSystem } from '../../src/ports/file-system.js';
import { createPostgresFileSystem } from '../../src/postgres.js';

/**
 * One embedded database for the calling test file (starting one takes seconds), closed after it, and a fresh
 * filesystem root in it per call.
 */
export function usePglite(): { readonly fresh: (options?: { maxReadBytes?: number }) => FileSystem; db: () => PGlite } {
  let db: PGlite | undefined;
  beforeAll(async () => {
    db = await PGlite.create();
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });
  const current = (): PGlite => {
    if (db === undefined) throw new Error('the database is not started yet');
    return db;
  };
  return {
    db: current,
    fresh: (options = {}) =>
      createPostgresFileSystem({ client: current(), root: `/t/${crypto.randomUUID()}`, ...options }),
  };
}
