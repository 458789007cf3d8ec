import { GoalLoopError } from '../errors.js';
import type { FileSystem } from '../ports/file-system.js';

const CHUNK_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

/** Where a visited line sits: `fromEnd` counts the non-empty lines from the end (0 is the last one). @internal */
export interface LinePosition {
  readonly fromEnd: number;
  /** False for a last line with no trailing newline (a torn append, or a writer that leaves it off). */
  readonly terminated: boolean;
}

/** Visits lines last to first in chunks, so cost depends on what is read, not the file's size; `true` stops. @internal */
export async function visitLinesBackwards(
  fs: FileSystem,
  path: string,
  visit: (line: string, position: LinePosition) => boolean,
): Promise<void> {
  const stat = await fs.stat(path);
  if (stat === null) return;
  // A directory, FIFO or device is never read as an empty log (a symlink is resolved by the caller's containment).
  if (stat.type === 'directory' || stat.type === 'other') {
    throw new GoalLoopError(
      'IO_ERROR',
      `${path} is not a regular file (it is ${stat.type === 'other' ? 'a FIFO, socket or device' : 'a directory'}); a log must be one.`,
    );
  }
  if (stat.type !== 'file') return;
  const decoder = new TextDecoder();
  let fromEnd = 0;
  let terminated = true;
  const emit = (reversed: Uint8Array[]): boolean => {
    const bytes = join(reversed.reverse());
    const stop = bytes.length > 0 && visit(decoder.decode(bytes), { fromEnd, terminated });
    if (bytes.length > 0) fromEnd += 1;
    terminated = true;
    return stop;
  };
  // The parts of the line being read, last part first, joined once the line's start is found.
  let pending: Uint8Array[] = [];
  let end = stat.size;
  while (end > 0) {
    const start = Math.max(0, end - CHUNK_BYTES);
    const chunk = await fs.readBytes(path, start, end - start);
    if (chunk === null) return;
    let lineEnd = chunk.length;
    if (end === stat.size) terminated = chunk[chunk.length - 1] === NEWLINE;
    for (let i = chunk.length - 1; i >= 0; i--) {
      if (chunk[i] !== NEWLINE) continue;
      pending.push(chunk.subarray(i + 1, lineEnd));
      if (emit(pending)) return;
      pending = [];
      lineEnd = i;
    }
    if (lineEnd > 0) pending.push(chunk.subarray(0, lineEnd));
    end = start;
  }
  emit(pending);
}

/** Length up to the last newline (what remains with a torn last line cut), or `null` when missing. @internal */
export async function committedLength(fs: FileSystem, path: string): Promise<number | null> {
  const stat = await fs.stat(path);
  if (stat === null) return null;
  let end = stat.size;
  while (end > 0) {
    const start = Math.max(0, end - CHUNK_BYTES);
    const chunk = await fs.readBytes(path, start, end - start);
    if (chunk === null) return null;
    const at = chunk.lastIndexOf(NEWLINE);
    if (at >= 0) return start + at + 1;
    end = start;
  }
  return 0;
}

/** A log line as a JSON object, or `null` for a torn or foreign line. @internal */
export function parseLogLine(line: string): Record<string, unknown> | null {
  const trimmed = line.trim();
  if (trimmed === '' || trimmed[0] !== '{') return null;
  try {
    const value: unknown = JSON.parse(trimmed);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

// Joins byte arrays into one (no copy for a single part).
function join(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
