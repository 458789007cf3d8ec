import { randomUUID } from 'node:crypto';
import type { Stats } from 'node:fs';
import * as fs from 'node:fs';
import { constants, promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { GoalLoopError, requireNonNegativeIntegers } from '../errors.js';
import { type FileStat, type FileSystem, isAtomicWriteTempName } from '../ports/file-system.js';

// O_NONBLOCK makes opening a FIFO return at once instead of waiting for a writer (or reader); a no-op on regular files.
const NONBLOCK = (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);
const READ_FLAGS = constants.O_RDONLY | NONBLOCK;
const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NONBLOCK;
const WRITE_FLAGS = constants.O_WRONLY | NONBLOCK;
const DEFAULT_MAX_READ_BYTES = 256 * 1024 * 1024;
// lstat of a missing path returns undefined instead of building an exception.
const NO_THROW_IF_MISSING = { throwIfNoEntry: false } as const;

/**
 * The Node implementation of the {@link FileSystem} port, rooted at `root`
 * (resolved to an absolute path). Writes go through a temp file, `fsync` and
 * `rename`; appends are single writes on an `O_APPEND` descriptor. A missing
 * file is `null`; any other failure throws a `GoalLoopError` with code
 * `IO_ERROR` and the original error as `cause`.
 *
 * Only regular files are read, appended to or truncated (symlinks followed):
 * a FIFO, socket, device or directory is an `IO_ERROR` naming the path, found
 * by `fstat` on a descriptor opened with `O_NONBLOCK`, so a FIFO never blocks.
 * `readText` refuses a file larger than `maxReadBytes` (default 256 MiB) with
 * an `IO_ERROR` naming the path and its size, and never reads past the cap
 * even when the file grows while it is read. `truncate` shortens a file and
 * fsyncs it; `removeStaleTempFiles` removes the temp files
 * (`.<name>.<pid>.<uuid>.tmp`) of writes whose process died before the rename.
 *
 * `stat` is one synchronous `lstat` and `realpath` one synchronous
 * `realpath(3)`, each returned as a settled promise: the system calls take
 * microseconds, less than the thread-pool round trip of an asynchronous call,
 * and an evaluation stats every file its criteria name and resolves every
 * folder they are in (a slow network filesystem blocks the event loop for
 * those calls). Reads, writes and listings stay asynchronous.
 *
 * The port does not confine paths: use the containment functions before
 * following a path taken from a contract.
 *
 * @param root - The project root (relative paths resolve against the current directory).
 * @param options - `maxReadBytes`: the most bytes `readText` reads from one
 *   file (a non-negative integer, default 268435456 = 256 MiB).
 * @example
 * ```ts
 * import { createNodeFileSystem } from 'goal-loop/node';
 * const fs = createNodeFileSystem(process.cwd());
 * const goal = await fs.readText('.goal-loop/runs/r-42/goal.json'); // string | null
 * ```
 * @public
 */
export function createNodeFileSystem(
  root: string,
  options: {
    /** The most bytes `readText` reads from one file; a larger file is an `IO_ERROR` (default 256 MiB). */
    readonly maxReadBytes?: number;
  } = {},
): FileSystem {
  const maxReadBytes = options.maxReadBytes ?? DEFAULT_MAX_READ_BYTES;
  if (!Number.isSafeInteger(maxReadBytes) || maxReadBytes < 0) {
    throw new GoalLoopError(
      'INVALID_OPTIONS',
      `maxReadBytes must be a non-negative integer (got ${String(options.maxReadBytes)})`,
    );
  }
  const rootAbs = nodePath.resolve(root);
  const rootPosix = toPosix(rootAbs);
  let rootReal: string | undefined;
  // Maps a port path (relative to the root, or absolute) to a native absolute path.
  const abs = (path: string): string => nodePath.resolve(rootAbs, path);
  // The root with its own symlinks resolved, so realpath results stay relative to it.
  const realRoot = (): string => {
    if (rootReal === undefined) {
      try {
        rootReal = fs.realpathSync.native(rootAbs);
      } catch {
        return rootAbs;
      }
    }
    return rootReal;
  };
  // Creates the parent directory of a native absolute path.
  const ensureParent = (target: string): Promise<unknown> => fsp.mkdir(nodePath.dirname(target), { recursive: true });

  return {
    root: rootPosix,
    readText: (path) => guard('read', path, () => readCapped(abs(path), path, maxReadBytes), true),
    readBytes: (path, position, length) =>
      guard(
        'read',
        path,
        async () => {
          requireNonNegativeIntegers('readBytes', { position, length });
          const { handle } = await openRegular(abs(path), READ_FLAGS, 'read', path);
          try {
            const buffer = Buffer.alloc(length);
            const { bytesRead } = await handle.read(buffer, 0, length, position);
            return new Uint8Array(buffer.subarray(0, bytesRead));
          } finally {
            await handle.close();
          }
        },
        true,
      ),
    writeText: (path, text) => guard('write', path, () => writeAtomic(abs(path), text)),
    appendText: (path, text) =>
      guard('append', path, async () => {
        const target = abs(path);
        await ensureParent(target);
        const { handle } = await openRegular(target, APPEND_FLAGS, 'append', path);
        try {
          const bytes = Buffer.from(text, 'utf8');
          let offset = 0;
          // One write in practice; a short write (never seen on regular files) finishes the rest.
          while (offset < bytes.length)
            offset += (await handle.write(bytes, offset, bytes.length - offset)).bytesWritten;
        } finally {
          await handle.close();
        }
      }),
    truncate: (path, size) =>
      guard('truncate', path, async () => {
        requireNonNegativeIntegers('truncate', { size });
        const { handle, size: before } = await openRegular(abs(path), WRITE_FLAGS, 'truncate', path);
        try {
          if (size < before) {
            await handle.truncate(size);
            await handle.sync();
          }
        } finally {
          await handle.close();
        }
      }),
    createExclusive: (path, text) =>
      guard('create', path, async () => {
        const target = abs(path);
        await ensureParent(target);
        try {
          await fsp.writeFile(target, text, { encoding: 'utf8', flag: 'wx' });
          return true;
        } catch (error) {
          if (errorCode(error) === 'EEXIST') return false;
          throw error;
        }
      }),
    stat: (path) => {
      try {
        const stats = fs.lstatSync(abs(path), NO_THROW_IF_MISSING);
        return Promise.resolve(stats === undefined ? null : toFileStat(stats));
      } catch (error) {
        return guard('stat', path, () => Promise.reject(error), true);
      }
    },
    realpath: (path) => {
      try {
        const resolved = fs.realpathSync.native(abs(path));
        const relative = nodePath.relative(realRoot(), resolved);
        if (relative === '') return Promise.resolve('.');
        return Promise.resolve(nodePath.isAbsolute(relative) ? toPosix(resolved) : toPosix(relative));
      } catch (error) {
        return guard('realpath', path, () => Promise.reject(error), true);
      }
    },
    list: (path) => guard('list', path, async () => Array.from(await fsp.readdir(abs(path))).sort(), true),
    remove: (path) =>
      guard('remove', path, async () => {
        const target = abs(path);
        const stats = await fsp
          .lstat(target)
          .catch((error: unknown) => (isMissing(error) ? null : Promise.reject(error)));
        if (stats === null) return;
        await (stats.isDirectory() ? fsp.rmdir(target) : fsp.unlink(target)).catch((error: unknown) =>
          isMissing(error) ? undefined : Promise.reject(error),
        );
      }),
    rename: (from, to) => guard('rename', `${from} -> ${to}`, () => fsp.rename(abs(from), abs(to))),
    mkdir: (path) => guard('mkdir', path, async () => void (await fsp.mkdir(abs(path), { recursive: true }))),
    removeStaleTempFiles: (dir, sweep) =>
      guard('remove temp files in', dir, async () => {
        if (!(sweep.olderThanMs >= 0)) {
          throw new GoalLoopError(
            'INVALID_OPTIONS',
            `olderThanMs must be a non-negative number (got ${String(sweep.olderThanMs)})`,
          );
        }
        const removed: string[] = [];
        await sweepTempFiles(abs(dir), dir, Date.now() - sweep.olderThanMs, sweep.recursive === true, removed);
        return removed.sort();
      }),
  };
}

// Opens a path and refuses anything but a regular file (the descriptor's own fstat, so no race with a swap).
async function openRegular(
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

// Reads a regular file as UTF-8, refusing it once it holds more than `cap` bytes. Callback fs calls: this is the
// hot path of an evaluation, and they cost far less per file than FileHandle promises.
function readCapped(target: string, path: string, cap: number): Promise<string> {
  return new Promise((resolve, reject) => {
    fs.open(target, READ_FLAGS, (openError, fd) => {
      if (openError !== null) return reject(openError);
      const chunks: Buffer[] = [];
      let total = 0;
      // Closes the descriptor, then settles with the text or the error.
      const finish = (error: unknown): void =>
        fs.close(fd, () => {
          if (error !== undefined) reject(error);
          else resolve((chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total)).toString('utf8'));
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

// Removes the stale atomic-write temp files of one directory (and below it), never following symlinks.
async function sweepTempFiles(
  dirAbs: string,
  dir: string,
  cutoffMs: number,
  recursive: boolean,
  removed: string[],
): Promise<void> {
  const entries = await fsp
    .readdir(dirAbs, { withFileTypes: true })
    .catch((error: unknown) => (isMissing(error) ? [] : Promise.reject(error)));
  for (const entry of entries) {
    const entryAbs = nodePath.join(dirAbs, entry.name);
    const entryPath = nodePath.posix.join(dir, entry.name);
    if (recursive && entry.isDirectory()) {
      await sweepTempFiles(entryAbs, entryPath, cutoffMs, recursive, removed);
    } else if (entry.isFile() && isAtomicWriteTempName(entry.name)) {
      const stats = await fsp.lstat(entryAbs).catch(() => null);
      if (stats === null || !stats.isFile() || stats.mtimeMs >= cutoffMs) continue;
      const gone = await fsp.unlink(entryAbs).then(
        () => true,
        (error: unknown) => (isMissing(error) ? false : Promise.reject(error)),
      );
      if (gone) removed.push(entryPath);
    }
  }
}

// Writes a file atomically: unique temp file beside it, fsync, rename over, fsync the directory.
async function writeAtomic(target: string, text: string): Promise<void> {
  const dir = nodePath.dirname(target);
  await fsp.mkdir(dir, { recursive: true });
  const temp = nodePath.join(dir, `.${nodePath.basename(target)}.${process.pid}.${randomUUID()}.tmp`);
  try {
    const handle = await fsp.open(temp, 'wx');
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fsp.rename(temp, target);
  } catch (error) {
    await fsp.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  await syncDirectory(dir);
}

// Flushes a directory entry to disk; best effort (some platforms refuse to open directories).
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await fsp.open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Not every platform or filesystem supports fsync on a directory.
  }
}

// Runs one operation, mapping a missing path to null (when allowed) and other failures to IO_ERROR.
async function guard<T>(operation: string, path: string, run: () => Promise<T>, missingIsNull: true): Promise<T | null>;
async function guard<T>(operation: string, path: string, run: () => Promise<T>): Promise<T>;
async function guard<T>(
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
function toFileStat(stats: Stats): FileStat {
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
function isMissing(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

// The `code` of a Node system error, if any.
function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

// Converts a native path to POSIX separators.
function toPosix(path: string): string {
  return nodePath.sep === '/' ? path : path.split(nodePath.sep).join('/');
}
