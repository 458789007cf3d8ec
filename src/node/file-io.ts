import { isUtf8 } from 'node:buffer';
import type { Stats } from 'node:fs';
import * as fs from 'node:fs';
import { constants, promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { GoalLoopError } from '../errors.js';
import { invalidUtf8Detail } from '../kit/utf8.js';
import type { FileStat } from '../ports/file-system.js';

// The Node filesystem adapter's low-level pieces: regular-file opens and capped reads, and the mapping of Node errors
// to the port's (atomic writes and temp-file sweeps are in atomic-write.ts).

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

// Reads a regular file as UTF-8, refusing it once it holds more than `cap` bytes, and refusing bytes that are not
// UTF-8 (decoding them would turn each into U+FFFD, and a goal or a contract would pass with text it never held).
// Callback fs calls: this is the hot path of an evaluation, and they cost far less per file than FileHandle promises.
export function readCapped(target: string, path: string, cap: number): Promise<string> {
  return new Promise((resolve, reject) => {
    fs.open(target, READ_FLAGS, (openError, fd) => {
      if (openError !== null) return reject(openError);
      const chunks: Buffer[] = [];
      let total = 0;
      // Closes the descriptor, then settles with the text or the error.
      const finish = (error: unknown): void =>
        fs.close(fd, () => {
          if (error !== undefined) return reject(error);
          const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total);
          // isUtf8 is a vectorised check (about a millisecond for 15 MB); the offset is looked for only on a failure.
          if (isUtf8(bytes)) resolve(bytes.toString('utf8'));
          else reject(notUtf8(path, bytes));
        });
      // Reads the next chunk at the end of what was read; stops at EOF or past the cap.
      const readNext = (want: number): void => {
        const buffer = Buffer.allocUnsafe(Math.min(want, cap + 1 - total));
        fs.read(fd, buffer, 0, buffer.length, total, (readError, bytesRead) => {
          if (readError !== null) return finish(readError);
          if (bytesRead === 0) return finish(undefined);
          chunks.push(buffer.subarray(0, bytesRead));
          total += bytesRead;
          if (total > cap) return finish(tooLarge(path, `more than ${cap} bytes`, cap));
          // A regular file reads short only at its end.
          if (bytesRead < buffer.length) return finish(undefined);
          readNext(65_536);
        });
      };
      fs.fstat(fd, (statError, stats) => {
        if (statError !== null) return finish(statError);
        if (!stats.isFile()) return finish(notRegular(stats, 'read', path));
        if (stats.size > cap) return finish(tooLarge(path, `${stats.size} bytes`, cap));
        // One byte more than the size, so a single read usually reaches the end; later reads pick up growth.
        readNext(stats.size + 1);
      });
    });
  });
}

// The error for a file over the read cap.
function tooLarge(path: string, size: string, cap: number): GoalLoopError {
  const cause = Object.assign(new Error(`EFBIG: "${path}" holds ${size}`), { code: 'EFBIG' });
  return new GoalLoopError(
    'IO_ERROR',
    `read "${path}" failed: EFBIG: the file holds ${size}, over the read cap of ${cap} bytes (maxReadBytes)`,
    { cause },
  );
}

// The error for a file whose bytes are not UTF-8, locating the first bad sequence.
function notUtf8(path: string, bytes: Uint8Array): GoalLoopError {
  const where = invalidUtf8Detail(bytes) ?? 'an unknown offset';
  const cause = Object.assign(new Error(`EILSEQ: "${path}" is not valid UTF-8 at ${where}`), { code: 'EILSEQ' });
  return new GoalLoopError('IO_ERROR', `read "${path}" failed: EILSEQ: the file is not valid UTF-8, at ${where}`, {
    cause,
  });
}

// The error for something that is not a regular file.
function notRegular(stats: Stats, operation: string, path: string): GoalLoopError {
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
