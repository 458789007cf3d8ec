// The one place the example's processes reach PostgreSQL: a pg Pool and the run directories over it, with the same
// root in every process, so the workers, the checks and the status reader see one tree in the database.
import { createPostgresFileSystem } from 'goal-loop/postgres';
import pg from 'pg';

/** The root every process of the example names its run directories under, in the database. */
export const PROJECT_ROOT = '/scaling-out';

/**
 * A pool to `url` and the filesystem over it. An idle connection the server ends (a restart) is an error event on
 * the pool, not a crash; a statement it cuts off is the port's IO_ERROR, and the next statement reconnects.
 */
export function openRunStore(url: string) {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  pool.on('error', () => undefined);
  return { pool, fs: createPostgresFileSystem({ client: pool, root: PROJECT_ROOT }) };
}
