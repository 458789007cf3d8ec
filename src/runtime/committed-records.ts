import type { z } from 'zod';
import { isInvalidUtf8Error } from '../errors.js';
import type { FileSystem } from '../ports/file-system.js';

/** As `readText`, except a torn last fragment cut inside a character still reads as the torn line it is. @internal */
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

/** Every complete line matching `schema`; a torn last line and foreign lines are skipped. @internal */
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
