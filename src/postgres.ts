// goal-loop/postgres: the FileSystem port over PostgreSQL, so workers on several machines share run directories
// through a database they already run.

import type { FileSystem } from './ports/file-system.js';
import { postgresFileSystem } from './postgres/file-system.js';
import type { PostgresFileSystemOptions } from './postgres/options.js';

export type { PostgresFileSystemOptions } from './postgres/options.js';
export type { PostgresClient } from './postgres/schema.js';

/**
 * A {@link FileSystem} whose whole tree lives in PostgreSQL: contracts,
 * logs, state, the run lock and the artifacts stage runners write through
 * `context.fs`, as rows of one table (`goal_loop_fs_entries`) keyed by
 * absolute path under `root`. The schema is created on first use, under an
 * advisory lock, and migrated by numbered versions
 * (`goal_loop_schema_versions`).
 *
 * Every operation is one statement, so `client` may be a pool: atomic
 * replace, append and exclusive create are each one transaction, and
 * `guarded` (the port's compare-and-swap) locks the guarded rows and checks
 * them in that same statement; the run lock uses it for its stale takeover
 * (a conditional replace of the holder's record) and its fencing (each
 * write checks the holder's token), so two workers on two machines never
 * both write one run. Timestamps (`mtimeMs`) are the server's clock.
 *
 * What a database cannot mean: there are no symlinks and no FIFOs (`stat`
 * reports only `file` and `directory`; `realpath` is the normalised path),
 * no process probe (a lock whose holder died is freed by its heartbeat
 * timeout alone), and no temp files (`removeStaleTempFiles` is absent). A
 * path that leads out of `root` (`../x`, `/elsewhere`) has no row: every
 * operation on it is an `IO_ERROR` (`EXDEV`), and `realpath` returns it as
 * the relative path it is, so the containment rule refuses it as it refuses
 * an escaping symlink. A lost connection or a server restart is an
 * `IO_ERROR` (`EIO`) quoting the database; nothing half-written remains.
 *
 * `pg` is not imported here: pass your own `Pool`. Bad options are
 * `INVALID_OPTIONS` naming each field.
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
