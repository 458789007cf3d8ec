import { GoalLoopError } from '../errors.js';

// What the schema's functions raise: GLIO1 with an errno-style code as the message, GLFEN when a guard fails.
const IO_STATE = 'GLIO1';
const GUARD_STATE = 'GLFEN';

// What each errno-style code means, for the message.
const MEANING: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  ENOTDIR: 'a parent is a file, not a directory',
  EISDIR: 'it is a directory, not a regular file',
  ENOTEMPTY: 'the directory is not empty',
  EINVAL: 'a directory cannot move into itself',
  EEXIST: 'something other than a directory is there',
  EBUSY: 'the root itself cannot be removed',
  ESCHEMA: 'the schema is newer than this adapter',
};

/**
 * The port's `IO_ERROR` for `operation` on `path`, with an errno-style `code` (as `cause.code`, as the Node adapter's
 * errors carry it) and why. @internal
 */
export function postgresIoError(code: string, operation: string, path: string, reason?: string, cause?: unknown) {
  const why = reason ?? MEANING[code];
  const error = cause ?? Object.assign(new Error(`${code}: ${operation} "${path}"`), { code });
  return new GoalLoopError('IO_ERROR', `${operation} "${path}" failed: ${code}${why === undefined ? '' : `: ${why}`}`, {
    cause: error,
  });
}

// The fields a database error carries (pg's and PGlite's alike).
interface SqlError {
  readonly code?: unknown;
  readonly message?: unknown;
  readonly detail?: unknown;
}

/**
 * What a failed statement of `operation` on `path` is as the port's error: a failed guard is `RUN_LOCKED` (nothing was
 * changed), a refusal of the schema's functions the `IO_ERROR` it names, and anything else (a lost connection, a server
 * restarting) an `IO_ERROR` quoting the database. @internal
 */
export function fromSqlError(error: unknown, operation: string, path: string): GoalLoopError {
  const sql = (typeof error === 'object' && error !== null ? error : {}) as SqlError;
  if (sql.code === GUARD_STATE)
    return new GoalLoopError(
      'RUN_LOCKED',
      `${operation} "${path}" refused: ${String(sql.detail)} no longer holds what this writer's guard expects (another writer took it over)`,
      { cause: error },
    );
  if (sql.code === IO_STATE) return postgresIoError(String(sql.message), operation, path);
  const said = typeof sql.message === 'string' ? sql.message : String(error);
  return postgresIoError('EIO', operation, path, `the database refused or could not be reached: ${said}`, error);
}
