// Atomic writes (temp file, fsync, rename, fsync the directory) and the sweep of temp files a crash left.
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import { promises as fsp } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import * as nodePath from 'node:path';
import { isAtomicWriteTempName } from '../ports/file-system.js';
import { errorCode, isMissing, makeDirectories } from './file-io.js';
import { type KnownDirectories, QUICK_WRITE_BYTES, quickReplace, quickTemp, syncDirectory } from './quick-write.js';

// Removes the stale atomic-write temp files of one directory (and below it), never following symlinks.
export async function sweepTempFiles(
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

// Small texts go the quick way (synchronous but for the flushes), large ones asynchronously.
export async function writeAtomic(target: string, text: string, sync: boolean, dirs: KnownDirectories): Promise<void> {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= QUICK_WRITE_BYTES) return quickReplace(target, bytes, sync, dirs);
  const temp = await writeTemp(target, bytes, sync);
  try {
    await fsp.rename(temp, target);
  } catch (error) {
    await fsp.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  if (sync) await syncDirectory(nodePath.dirname(target));
}

// Filesystems without hard links, where an exclusive create falls back to an open with O_EXCL and a write.
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

/** Temp file hard-linked as the target, so a kill never leaves an empty lock taken for a holder's; `false` when taken. */
export async function createWhole(
  target: string,
  text: string,
  sync: boolean,
  dirs: KnownDirectories,
): Promise<boolean> {
  const bytes = Buffer.from(text, 'utf8');
  const temp =
    bytes.length <= QUICK_WRITE_BYTES
      ? await quickTemp(target, bytes, sync, dirs)
      : await writeTemp(target, bytes, sync);
  try {
    fs.linkSync(temp, target);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'EEXIST') return false;
    if (code === undefined || !NO_HARD_LINKS.has(code)) throw error;
    return fsp.writeFile(target, bytes, { flag: 'wx' }).then(
      () => true,
      (cause: unknown) => (errorCode(cause) === 'EEXIST' ? false : Promise.reject(cause)),
    );
  } finally {
    fs.rmSync(temp, { force: true });
  }
  if (sync) await syncDirectory(nodePath.dirname(target));
  return true;
}

// Writes `bytes` to a fresh temp file beside `target` (its folders made first), fsyncs it when `sync`; returns its path.
async function writeTemp(target: string, bytes: Buffer, sync: boolean): Promise<string> {
  const dir = nodePath.dirname(target);
  await makeDirectories(dir);
  const temp = nodePath.join(dir, `.${nodePath.basename(target)}.${process.pid}.${randomUUID()}.tmp`);
  try {
    const handle = await fsp.open(temp, 'wx');
    try {
      await writeAll(handle, bytes);
      if (sync) await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    await fsp.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  return temp;
}

// The most bytes one write call is given (Node refuses a length past 2 GiB - 1).
const MAX_WRITE_BYTES = 2 ** 30;

/** Fewer thread-pool round trips than FileHandle.writeFile; a write that makes no progress is `EIO`, not a loop. */
async function writeAll(handle: FileHandle, bytes: Buffer): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, offset, Math.min(bytes.length - offset, MAX_WRITE_BYTES));
    if (bytesWritten === 0)
      throw Object.assign(new Error(`the write made no progress at byte ${offset} of ${bytes.length}`), {
        code: 'EIO',
      });
    offset += bytesWritten;
  }
}
