import type { z } from 'zod';
import { isInvalidUtf8Error } from '../errors.js';
import type { FileSystem } from '../ports/file-system.js';

/**
 * The text of a JSONL file whose last line may be torn: as `readText` reads
 * it, or, when only that torn fragment after the last line end is not valid
 * UTF-8 (an append cut off inside a character), the committed lines read
 * strictly and the fragment after them with replacement characters, so it
 * still reads as the torn line it is. Invalid UTF-8 in a committed line is
 * the read's error, as for any text file.
 *
 * @internal
 */
export async function readJsonlText(fs: FileSystem, path: string): Promise<string | null> {
  try {
    return await fs.readText(path);
  } catch (error) {
    if (!isInvalidUtf8Error(error)) throw error;
    const size = (await fs.stat(path))?.size ?? 0;
    const bytes = await fs.readBytes(path, 0, size);
    if (bytes === null) return null;
    const end = bytes.lastIndexOf(0x0a) + 1;
    let committed: string;
    try {
      committed = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, end));
    } catch {
      throw error;
    }
    return committed + new TextDecoder('utf-8').decode(bytes.subarray(end));
  }
}

/**
 * The committed records of a JSONL file, in order: every complete line that
 * parses and matches `schema`. A torn last line (a crash mid-append, never a
 * committed record, even one cut inside a character) and lines that are not
 * records are skipped; a missing file has none.
 *
 * @internal
 */
export async function readCommittedRecords<T>(fs: FileSystem, path: string, schema: z.ZodType<T>): Promise<T[]> {
  const text = await readJsonlText(fs, path);
  if (text === null) return [];
  const lines = text.split('\n');
  lines.pop();
  const records: T[] = [];
  for (const line of lines) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) records.push(parsed.data);
  }
  return records;
}
