import type { z } from 'zod';
import type { FileSystem } from '../ports/file-system.js';

/**
 * The committed records of a JSONL file, in order: every complete line that
 * parses and matches `schema`. A torn last line (a crash mid-append, never a
 * committed record) and lines that are not records are skipped; a missing
 * file has none.
 *
 * @internal
 */
export async function readCommittedRecords<T>(fs: FileSystem, path: string, schema: z.ZodType<T>): Promise<T[]> {
  const text = await fs.readText(path);
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
