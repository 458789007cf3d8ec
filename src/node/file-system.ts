import { randomUUID } from 'node:crypto';
import type { Stats } from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { GoalLoopError } from '../errors.js';
import { checkByteRange, type FileStat, type FileSystem } from '../ports/file-system.js';

/**
 * The Node implementation of the {@link FileSystem} port, rooted at `root`
 * (resolved to an absolute path). Writes go through a temp file, `fsync` and
 * `rename`; appends are single writes on an `O_APPEND` descriptor. A missing
 * file is `null`; any other failure throws a `GoalLoopError` with code
 * `IO_ERROR` and the original error as `cause`.
 *
 * The port does not confine paths: use the containment functions before
 * following a path taken from a contract.
 *
 * @param root - The project root (relative paths resolve against the current directory).
 * @example
 * ```ts
 * import { createNodeFileSystem } from 'goal-loop/node';
 * const fs = createNodeFileSystem(process.cwd());
 * const goal = await fs.readText('.goal-loop/runs/r-42/goal.json'); // string | null
 * ```
 * @public
 */
export function createNodeFileSystem(root: string): FileSystem {
  const rootAbs = nodePath.resolve(root);
  const rootPosix = toPosix(rootAbs);
  let rootReal: string | undefined;
  // Maps a port path (relative to the root, or absolute) to a native absolute path.
  const abs = (path: string): string => nodePath.resolve(rootAbs, path);
  // The root with its own symlinks resolved, so realpath results stay relative to it.
  const realRoot = async (): Promise<string> => {
    if (rootReal === undefined) rootReal = await fsp.realpath(rootAbs).catch(() => undefined);
    return rootReal ?? rootAbs;
  };
  // Creates the parent directory of a native absolute path.
  const ensureParent = (target: string): Promise<unknown> => fsp.mkdir(nodePath.dirname(target), { recursive: true });

  return {
    root: rootPosix,
    readText: (path) => guard('read', path, () => fsp.readFile(abs(path), 'utf8'), true),
    readBytes: (path, position, length) =>
      guard(
        'read',
        path,
        async () => {
          checkByteRange(position, length);
          const handle = await fsp.open(abs(path), 'r');
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
        const handle = await fsp.open(target, 'a');
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
    stat: (path) => guard('stat', path, async () => toFileStat(await fsp.lstat(abs(path))), true),
    realpath: (path) =>
      guard(
        'realpath',
        path,
        async () => {
          const resolved = await fsp.realpath(abs(path));
          const relative = nodePath.relative(await realRoot(), resolved);
          if (relative === '') return '.';
          return nodePath.isAbsolute(relative) ? toPosix(resolved) : toPosix(relative);
        },
        true,
      ),
    list: (path) => guard('list', path, async () => (await fsp.readdir(abs(path))).sort(), true),
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
  };
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
