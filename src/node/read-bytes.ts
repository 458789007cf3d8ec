// readBytes of the Node adapter: a small range is read with synchronous calls (open, fstat, read, close take
// microseconds, less than their thread-pool round trips: a lock's fencing read, a log read backwards), into a buffer
// no larger than what the file holds there; a large one asynchronously.
import * as fs from 'node:fs';
import { notRegular, openRegular, READ_FLAGS } from './file-io.js';
import { mayHold, SYNC_READ_BYTES } from './read-capped.js';

/**
 * Up to `length` bytes of the regular file `target` (named `path` in errors) from `position`; a missing file is the
 * open's ENOENT, anything but a regular file an `IO_ERROR`.
 *
 * @internal
 */
export async function readBytesAt(target: string, path: string, position: number, length: number): Promise<Uint8Array> {
  if (length > SYNC_READ_BYTES || !mayHold(Math.min(length, SYNC_READ_BYTES)))
    return readAsync(target, path, position, length);
  const fd = fs.openSync(target, READ_FLAGS);
  try {
    const stats = fs.fstatSync(fd);
    if (!stats.isFile()) throw notRegular(stats, 'read', path);
    // A file whose size reads as 0 (procfs) may still hold bytes: the whole length is asked of it.
    const want = stats.size === 0 ? length : Math.min(length, Math.max(0, stats.size - position));
    const buffer = Buffer.allocUnsafe(want);
    const read = want === 0 ? 0 : fs.readSync(fd, buffer, 0, want, position);
    return new Uint8Array(buffer.buffer, buffer.byteOffset, read);
  } finally {
    fs.closeSync(fd);
  }
}

// The asynchronous read of a range too large to hold the event loop for.
async function readAsync(target: string, path: string, position: number, length: number): Promise<Uint8Array> {
  const { handle } = await openRegular(target, READ_FLAGS, 'read', path);
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, position);
    return new Uint8Array(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}
