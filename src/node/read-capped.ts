import { isUtf8 } from 'node:buffer';
import * as fs from 'node:fs';
import { GoalLoopError } from '../errors.js';
import { invalidUtf8Detail } from '../kit/utf8.js';
import { NO_THROW_IF_MISSING, notRegular, READ_FLAGS } from './file-io.js';

// readText's reads: a regular file as UTF-8, refused once it holds more than the cap, refused when its bytes are not
// UTF-8 (decoding them would turn each into U+FFFD, and a goal or a contract would pass with text it never held).

/**
 * A file smaller than this is read with synchronous calls: it costs a few microseconds to open, fstat, read and close
 * on the calling thread, far less than the four thread-pool round trips of asynchronous calls, and an evaluation reads
 * such files every iteration. A larger file (a large verdict file, a review's test cases) is read asynchronously, so a
 * big read never holds the event loop; so is the rest of a small file that grows past this size while it is read.
 *
 * @internal
 */
export const SYNC_READ_BYTES = 1024 * 1024;

/**
 * The most bytes read synchronously between two turns of the event loop: reads settled at once let no timer or I/O
 * run between them, so a caller awaiting many in a row would hold the loop for all of them (200 files just under
 * 1 MiB: about 200 ms). Past this, a read is asynchronous until the loop has turned.
 *
 * @internal
 */
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

/**
 * Reads the file at `target` (named `path` in errors), opened with O_NONBLOCK so a FIFO never blocks and refused by
 * its descriptor's own fstat (so no race with a swap) unless it is a regular file; never reads past `cap` bytes, even
 * when the file grows while it is read. An lstat first answers a missing path (null, without the exception a failed
 * open builds: an evaluation looks for half a dozen optional files) and refuses a FIFO, device or directory without
 * opening it (an open of a device may wait); a symlink is followed by the open and judged by the fstat, and a file
 * removed between the calls is the open's ENOENT.
 *
 * @internal
 */
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

// Reads from the start: synchronously (when `sync`) while the bytes stay within SYNC_READ_BYTES, then asynchronously.
// One byte more than the size is asked for first, so a single read usually reaches the end; later reads pick up
// growth. A file whose size reads as 0 is read in whole chunks until a read gives nothing: procfs and sysfs files say
// 0, give a page per read, and some give nothing to a read that does not start at 0 (so a first read of one byte
// would cut `/proc/sys/kernel/pid_max` to its first digit).
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

// Keeps a read's bytes; true at the end of the file (no byte, or a short read: a regular file of a known size reads
// short only at its end). Throws once the file holds more than the cap.
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

// The text of the bytes; isUtf8 is a vectorised check (about a millisecond for 15 MB), the offset of a bad sequence
// is looked for only on a failure.
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
