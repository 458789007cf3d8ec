import type { FileSystem } from '../ports/file-system.js';

const CHUNK_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

/**
 * Visits the lines of a file from the last to the first, reading fixed-size
 * chunks from the end, so finding something near the end of a huge log costs
 * the same as in a small one. `visit` returns `true` to stop. A file whose
 * last line has no trailing newline still yields that line (a reader decides
 * whether it is torn). Missing file: nothing is visited.
 *
 * @internal
 */
export async function visitLinesBackwards(
  fs: FileSystem,
  path: string,
  visit: (line: string) => boolean,
): Promise<void> {
  const stat = await fs.stat(path);
  if (stat === null || stat.type !== 'file') return;
  const decoder = new TextDecoder();
  let end = stat.size;
  let carry: Uint8Array = new Uint8Array(0);
  while (end > 0) {
    const start = Math.max(0, end - CHUNK_BYTES);
    const chunk = await fs.readBytes(path, start, end - start);
    if (chunk === null) return;
    const bytes = concat(chunk, carry);
    let lineEnd = bytes.length;
    for (let i = bytes.length - 1; i >= 0; i--) {
      if (bytes[i] !== NEWLINE) continue;
      if (i + 1 < lineEnd && visit(decoder.decode(bytes.subarray(i + 1, lineEnd)))) return;
      lineEnd = i;
    }
    carry = bytes.slice(0, lineEnd);
    end = start;
  }
  if (carry.length > 0) visit(decoder.decode(carry));
}

// Joins two byte arrays (a chunk and the partial line carried from the chunk after it).
function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (b.length === 0) return a;
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/**
 * Parses one log line as a JSON object, or `null` for a torn or foreign line.
 *
 * @internal
 */
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
