// Small writes as synchronous calls, only fsyncs on the thread pool: a durable step costs its fsyncs, not round trips.
import { randomUUID } from 'node:crypto';
// The module object, not its namespace: its calls are the ones a test can intercept (a short write, a full disk).
import fs from 'node:fs';
import * as nodePath from 'node:path';
import { promisify } from 'node:util';
import { errorCode } from './file-io.js';

const fdatasync = promisify(fs.fdatasync);
const fsync = promisify(fs.fsync);

/** Writes larger than this go the asynchronous way (atomic-write.ts): a big write never holds the event loop. */
export const QUICK_WRITE_BYTES = 1024 * 1024;

// The most folders remembered; past it the set starts afresh (a long-lived process over many runs).
const MAX_KNOWN = 4096;

/** The folders this filesystem made or found, so a write makes its parent folder only the first time. @internal */
export class KnownDirectories {
  private readonly known = new Set<string>();

  /** Makes `dir` and its parents unless already made. */
  ensure(dir: string): void {
    if (this.known.has(dir)) return;
    makeDirectoriesSync(dir);
    if (this.known.size >= MAX_KNOWN) this.known.clear();
    this.known.add(dir);
  }

  /** Runs `open` (a call that creates an entry in `dir`), making `dir` first and again if it was removed since. */
  within<T>(dir: string, open: () => T): T {
    this.ensure(dir);
    try {
      return open();
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
      this.known.clear();
      this.ensure(dir);
      return open();
    }
  }
}

// Node's recursive mkdir says ENOENT whatever stopped it; the first missing ancestor's own mkdir tells the truth.
function makeDirectoriesSync(dir: string): void {
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
    let missing = dir;
    for (let parent = nodePath.dirname(missing); parent !== missing; parent = nodePath.dirname(parent)) {
      if (fs.lstatSync(parent, { throwIfNoEntry: false }) !== undefined) break;
      missing = parent;
    }
    fs.mkdirSync(missing);
    throw error;
  }
}

/** Writes every byte to `fd`; a write that makes no progress is an `EIO` error instead of a loop that never ends. */
export function writeAllSync(fd: number, bytes: Uint8Array): void {
  let offset = 0;
  while (offset < bytes.length) {
    const written = fs.writeSync(fd, bytes, offset, bytes.length - offset);
    if (written === 0)
      throw Object.assign(new Error(`the write made no progress at byte ${offset} of ${bytes.length}`), {
        code: 'EIO',
      });
    offset += written;
  }
}

/** A fresh temp file beside `target`, fdatasync'd when `sync`; removed on failure. */
export async function quickTemp(
  target: string,
  bytes: Uint8Array,
  sync: boolean,
  dirs: KnownDirectories,
): Promise<string> {
  const dir = nodePath.dirname(target);
  const temp = nodePath.join(dir, `.${nodePath.basename(target)}.${process.pid}.${randomUUID()}.tmp`);
  const fd = dirs.within(dir, () => fs.openSync(temp, 'wx'));
  try {
    writeAllSync(fd, bytes);
    if (sync) await fdatasync(fd);
  } catch (error) {
    fs.closeSync(fd);
    fs.rmSync(temp, { force: true });
    throw error;
  }
  fs.closeSync(fd);
  return temp;
}

/** Replaces `target` atomically: a temp file, flushed when `sync`, renamed over it, and its folder flushed. */
export async function quickReplace(
  target: string,
  bytes: Uint8Array,
  sync: boolean,
  dirs: KnownDirectories,
): Promise<void> {
  const temp = await quickTemp(target, bytes, sync, dirs);
  try {
    fs.renameSync(temp, target);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
  if (sync) await syncDirectory(nodePath.dirname(target));
}

/** Flushes a folder's entries to disk; best effort (some platforms refuse to open or fsync a folder). */
export async function syncDirectory(dir: string): Promise<void> {
  let fd: number;
  try {
    fd = fs.openSync(dir, 'r');
  } catch {
    return;
  }
  try {
    await fsync(fd);
  } catch {
    // Not every platform or filesystem supports fsync on a directory.
  } finally {
    fs.closeSync(fd);
  }
}
