import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { GoalLoopError, requireNonNegativeIntegers } from '../errors.js';
import type { FileSystem } from '../ports/file-system.js';
import { AppendHandles } from './append-handles.js';
import { createWhole, sweepTempFiles, writeAtomic } from './atomic-write.js';
import {
  DEFAULT_MAX_READ_BYTES,
  guard,
  isMissing,
  makeDirectories,
  NO_THROW_IF_MISSING,
  openRegular,
  toFileStat,
  toPosix,
  WRITE_FLAGS,
} from './file-io.js';
import { checkNodeFileSystemOptions, type NodeFileSystemOptions } from './options.js';
import { createNodeProcessProbe } from './process-probe.js';
import { KnownDirectories } from './quick-write.js';
import { readBytesAt } from './read-bytes.js';
import { readCapped } from './read-capped.js';
import { realBelowRoot } from './real-path.js';

/**
 * The Node `FileSystem`, rooted at `root` (resolved to an absolute path). Writes go through a temp file,
 * `fsync` and `rename`; appends are single `O_APPEND` writes. A missing file is `null`; other failures are
 * `IO_ERROR` with the original error as `cause`. Only regular files are read (a FIFO never blocks); `readText`
 * refuses files over `maxReadBytes` and bytes that are not UTF-8. Its `processes` are this machine's
 * ({@link createNodeProcessProbe}).
 *
 * Small reads and writes are synchronous system calls (but for the fsyncs), so on a hung network filesystem they hold
 * the event loop (docs/testing.md). The port does not confine paths: use the containment functions for a contract's.
 *
 * @param root - The project root, a non-empty path (relative ones resolve against the cwd); it need not exist yet.
 * @param options - `maxReadBytes`: the most bytes `readText` reads from one file (default 256 MiB).
 * @example
 * ```ts
 * import { createNodeFileSystem } from 'goal-loop/node';
 * const fs = createNodeFileSystem(process.cwd());
 * const goal = await fs.readText('.goal-loop/runs/r-42/goal.json'); // string | null
 * ```
 * @public
 */
export function createNodeFileSystem(root: string, options: NodeFileSystemOptions = {}): FileSystem {
  const maxReadBytes = checkNodeFileSystemOptions(root, options, DEFAULT_MAX_READ_BYTES);
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
  // The folders this filesystem made (each made once), and the descriptors its appends keep open.
  const dirs = new KnownDirectories();
  const appends = new AppendHandles(dirs);

  return {
    root: rootPosix,
    readText: (path) => guard('read', path, () => readCapped(abs(path), path, maxReadBytes), true),
    readBytes: (path, position, length) =>
      guard(
        'read',
        path,
        async () => {
          requireNonNegativeIntegers('readBytes', { position, length });
          return readBytesAt(abs(path), path, position, length);
        },
        true,
      ),
    writeText: (path, text, write) =>
      guard('write', path, () => writeAtomic(abs(path), text, write?.sync !== false, dirs)),
    appendText: (path, text) =>
      guard('append', path, async () => appends.append(abs(path), path, Buffer.from(text, 'utf8'))),
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
    createExclusive: (path, text, write) =>
      guard('create', path, () => createWhole(abs(path), text, write?.sync !== false, dirs)),
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
        // The root's own symlinks resolved first: only then is a path below it real when no part below is a symlink.
        const real = realRoot() === rootAbs ? realBelowRoot(rootAbs, abs(path)) : undefined;
        if (real !== undefined) return Promise.resolve(real === '' ? '.' : real === null ? null : toPosix(real));
        const resolved = fs.realpathSync.native(abs(path));
        const relative = nodePath.relative(realRoot(), resolved);
        if (relative === '') return Promise.resolve('.');
        return Promise.resolve(nodePath.isAbsolute(relative) ? toPosix(resolved) : toPosix(relative));
      } catch (error) {
        return guard('realpath', path, () => Promise.reject(error), true);
      }
    },
    list: (path) => guard('list', path, async () => fs.readdirSync(abs(path)).sort(), true),
    remove: (path) =>
      guard('remove', path, async () => {
        // Synchronous calls: an lstat and an unlink (or rmdir of an empty folder) take microseconds.
        const target = abs(path);
        const stats = fs.lstatSync(target, NO_THROW_IF_MISSING);
        if (stats === undefined) return;
        try {
          if (stats.isDirectory()) fs.rmdirSync(target);
          else fs.unlinkSync(target);
        } catch (error) {
          if (!isMissing(error)) throw error;
        }
      }),
    rename: (from, to) => guard('rename', `${from} -> ${to}`, async () => fs.renameSync(abs(from), abs(to))),
    mkdir: (path) => guard('mkdir', path, async () => await makeDirectories(abs(path))),
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
    processes: createNodeProcessProbe(),
  };
}
