import { isUtf8 } from 'node:buffer';
import * as fs from 'node:fs';
import { GoalLoopError } from '../errors.js';
import { invalidUtf8Detail } from '../kit/utf8.js';
import { NO_THROW_IF_MISSING, notRegular, READ_FLAGS } from './file-io.js';

// readText's reads: refused past the cap or when not UTF-8 (U+FFFD would let a goal pass with text it never held).

/** Smaller files are read synchronously: microseconds, against four thread-pool round trips. @internal */
export const SYNC_READ_BYTES = 1024 * 1024;

/** Synchronous bytes allowed per event-loop turn, so a run of small reads never holds the loop. @internal */
export const SYNC_BYTES_PER_TURN = 4 * 1024 * 1024;

// Bytes read synchronously since the event loop last turned; set back to 0 by an immediate callback.
let heldBytes = 0;

/** True when `size` more bytes may be read synchronously in this turn of the event loop (and counts them). @internal */
export function mayHold(size: number): boolean {
  if (heldBytes > 0 && heldBytes + size > SYNC_BYTES_PER_TURN) return false;
  if (heldBytes === 0)
    setImmediate(() => {
      heldBytes = 0;
    });
  heldBytes += size;
  return true;
}

// The bytes read so far, and whether only an empty read ends the file.
interface Progress {
  readonly chunks: Buffer[];
  total: number;
  readonly toEnd: boolean;
}

/** A regular file only (O_NONBLOCK, judged by its fstat; lstat first so a miss costs no exception), never past `cap`. @internal */
export function readCapped(target: string, path: string, cap: number): Promise<string | null> {
  let fd: number;
  try {
    const entry = fs.lstatSync(target, NO_THROW_IF_MISSING);
    if (entry === undefined) return Promise.resolve(null);
    if (!entry.isFile() && !entry.isSymbolicLink()) throw notRegular(entry, 'read', path);
    fd = fs.openSync(target, READ_FLAGS);
  } catch (error) {
    return Promise.reject(error);
  }
  let read: Buffer | Promise<Buffer>;
  try {
    const stats = fs.fstatSync(fd);
    if (!stats.isFile()) throw notRegular(stats, 'read', path);
    if (stats.size > cap) throw tooLarge(path, `${stats.size} bytes`, cap);
    // A file whose size reads as 0 (procfs) may hold up to SYNC_READ_BYTES read synchronously: it is counted so.
    const holds = stats.size === 0 ? SYNC_READ_BYTES : stats.size + 1;
    read = readBytes(fd, stats.size, path, cap, stats.size < SYNC_READ_BYTES && mayHold(holds));
  } catch (error) {
    fs.closeSync(fd);
    return Promise.reject(error);
  }
  if (!(read instanceof Promise)) {
    fs.closeSync(fd);
    return settle(() => decoded(read, path));
  }
  // The descriptor is closed before the outcome is known to the caller, whatever it is.
  return read.then(
    (bytes) => closed(fd).then(() => decoded(bytes, path)),
    (error: unknown) => closed(fd).then(() => Promise.reject(error)),
  );
}

// Asks size+1 bytes so one read usually reaches the end; a size of 0 (procfs) reads whole chunks until one is empty.
function readBytes(fd: number, size: number, path: string, cap: number, sync: boolean): Buffer | Promise<Buffer> {
  const progress: Progress = { chunks: [], total: 0, toEnd: size === 0 };
  let want = size === 0 ? 65_536 : size + 1;
  while (sync && progress.total + want <= SYNC_READ_BYTES) {
    const buffer = nextBuffer(progress, want, cap);
    if (took(progress, buffer, fs.readSync(fd, buffer, 0, buffer.length, progress.total), path, cap)) {
      return joined(progress);
    }
    want = 65_536;
  }
  return new Promise((resolve, reject) => {
    const readNext = (): void => {
      const buffer = nextBuffer(progress, want, cap);
      fs.read(fd, buffer, 0, buffer.length, progress.total, (error, bytesRead) => {
        if (error !== null) return reject(error);
        try {
          if (took(progress, buffer, bytesRead, path, cap)) return resolve(joined(progress));
        } catch (refusal) {
          return reject(refusal);
        }
        want = 65_536;
        readNext();
      });
    };
    readNext();
  });
}

// A buffer for the next read: `want` bytes, but never more than one past the cap.
function nextBuffer(progress: Progress, want: number, cap: number): Buffer {
  return Buffer.allocUnsafe(Math.min(want, cap + 1 - progress.total));
}

// True at the end (no byte, or a short read); throws once past the cap.
function took(progress: Progress, buffer: Buffer, bytesRead: number, path: string, cap: number): boolean {
  if (bytesRead === 0) return true;
  progress.chunks.push(buffer.subarray(0, bytesRead));
  progress.total += bytesRead;
  if (progress.total > cap) throw tooLarge(path, `more than ${cap} bytes`, cap);
  return bytesRead < buffer.length && !progress.toEnd;
}

// The bytes read, in one buffer.
function joined(progress: Progress): Buffer {
  return progress.chunks.length === 1 ? (progress.chunks[0] as Buffer) : Buffer.concat(progress.chunks, progress.total);
}

// isUtf8 is vectorised; the bad offset is looked for only on failure.
function decoded(bytes: Buffer, path: string): string {
  if (isUtf8(bytes)) return bytes.toString('utf8');
  throw notUtf8(path, bytes);
}

// A promise of what `run` returns, or of its throw.
function settle<T>(run: () => T): Promise<T> {
  try {
    return Promise.resolve(run());
  } catch (error) {
    return Promise.reject(error);
  }
}

// Closes a descriptor (a failure to close a file only read changes nothing the caller reads).
function closed(fd: number): Promise<void> {
  return new Promise((resolve) => fs.close(fd, () => resolve()));
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
