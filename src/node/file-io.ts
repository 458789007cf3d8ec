import type { Stats } from 'node:fs';
import { constants, promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { GoalLoopError } from '../errors.js';
import type { FileStat } from '../ports/file-system.js';

// The Node filesystem adapter's low-level pieces: regular-file opens and the mapping of Node errors to the port's
// (capped reads are in read-capped.ts, atomic writes and temp-file sweeps in atomic-write.ts).

// O_NONBLOCK makes opening a FIFO return at once instead of waiting for a writer (or reader); a no-op on regular files.
const NONBLOCK = (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);
export const READ_FLAGS = constants.O_RDONLY | NONBLOCK;
export const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NONBLOCK;
export const WRITE_FLAGS = constants.O_WRONLY | NONBLOCK;
export const DEFAULT_MAX_READ_BYTES = 256 * 1024 * 1024;
// lstat of a missing path returns undefined instead of building an exception.
export const NO_THROW_IF_MISSING = { throwIfNoEntry: false } as const;

// Opens a path and refuses anything but a regular file (the descriptor's own fstat, so no race with a swap).
export async function openRegular(
  target: string,
  flags: number,
  operation: string,
  path: string,
): Promise<{ handle: fsp.FileHandle; size: number }> {
  const handle = await fsp.open(target, flags, 0o666);
  try {
    const stats = await handle.stat();
    if (stats.isFile()) return { handle, size: stats.size };
    throw notRegular(stats, operation, path);
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** The `IO_ERROR` for something that is not a regular file, naming what it is (`EISDIR` for a directory). @internal */
export function notRegular(stats: Stats, operation: string, path: string): GoalLoopError {
  const kind = kindOf(stats);
  const code = stats.isDirectory() ? 'EISDIR' : 'ENOTREG';
  const cause = Object.assign(new Error(`${code}: "${path}" is ${kind}`), { code });
  return new GoalLoopError('IO_ERROR', `${operation} "${path}" failed: ${code}: it is ${kind}, not a regular file`, {
    cause,
  });
}

// What a non-regular file is, for messages.
function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

// Runs one operation, mapping a missing path to null (when allowed) and other failures to IO_ERROR.
export async function guard<T>(
  operation: string,
  path: string,
  run: () => Promise<T>,
  missingIsNull: true,
): Promise<T | null>;
export async function guard<T>(operation: string, path: string, run: () => Promise<T>): Promise<T>;
export async function guard<T>(
  operation: string,
  path: string,
  run: () => Promise<T>,
  missingIsNull = false,
): Promise<T | null> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof GoalLoopError) throw error;
    if (missingIsNull && isMissing(error)) return null;
    const code = errorCode(error) ?? 'unknown error';
    throw new GoalLoopError('IO_ERROR', `${operation} "${path}" failed: ${code}`, { cause: error });
  }
}

// Creates `dir` and its missing parents. Node's recursive mkdir says ENOENT whatever stopped it below a missing parent
// (a read-only or full filesystem): the first missing ancestor's own mkdir then says what did.
export async function makeDirectories(dir: string): Promise<void> {
  try {
    await fsp.mkdir(dir, { recursive: true });
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
    let missing = dir;
    for (let parent = nodePath.dirname(missing); parent !== missing; parent = nodePath.dirname(parent)) {
      if ((await fsp.lstat(parent).catch(() => null)) !== null) break;
      missing = parent;
    }
    throw await fsp.mkdir(missing).then(
      () => error,
      (cause: unknown) => cause,
    );
  }
}

// Converts Node stats of the path itself (lstat) to the port's FileStat.
export function toFileStat(stats: Stats): FileStat {
  const type = stats.isSymbolicLink()
    ? 'symlink'
    : stats.isFile()
      ? 'file'
      : stats.isDirectory()
        ? 'directory'
        : 'other';
  return { type, size: stats.size, mtimeMs: stats.mtimeMs };
}

// True for the errors that mean "nothing there" (a missing entry or a file used as a directory).
export function isMissing(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

// The `code` of a Node system error, if any.
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

// Converts a native path to POSIX separators.
export function toPosix(path: string): string {
  return nodePath.sep === '/' ? path : path.split(nodePath.sep).join('/');
}
