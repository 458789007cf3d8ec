// goal-loop/postgres: the FileSystem port over PostgreSQL, for workers on several machines.

import type { FileSystem } from './ports/file-system.js';
import { postgresFileSystem } from './postgres/file-system.js';
import type { PostgresFileSystemOptions } from './postgres/options.js';

export type { PostgresFileSystemOptions } from './postgres/options.js';
export type { PostgresClient } from './postgres/schema.js';

/**
 * A `FileSystem` whose whole tree lives in PostgreSQL (one table, `goal_loop_fs_entries`, keyed by absolute path
 * under `root`; schema created and migrated on first use). Every operation is one statement, so `client` may be a
 * pool, and `guarded` lets the run lock take over and fence atomically across machines. No symlinks, FIFOs, process
 * probe or temp files; a path out of `root` is `IO_ERROR` (`EXDEV`). See docs/across-machines.md.
 *
 * `pg` is not imported here: pass your own `Pool`. Bad options are `INVALID_OPTIONS` naming each field.
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * import { createPostgresFileSystem } from 'goal-loop/postgres';
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * const fs = createPostgresFileSystem({ client: pool, root: '/projects/shop' });
 * const loop = new GoalLoop({ fs, runDir: '.goal-loop/runs/r-42', stages, runner });
 * ```
 * @public
 */
export function createPostgresFileSystem(options: PostgresFileSystemOptions): FileSystem {
  return postgresFileSystem(options);
}
