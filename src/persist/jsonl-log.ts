import type { FileSystem } from '../ports/file-system.js';
import { parseLogLine, visitLinesBackwards } from './backward-lines.js';

/** A record of a {@link JsonlLog}: any JSON object with its position in the log. @internal */
export interface Sequenced {
  readonly seq: number;
}

/**
 * The last JSON object line of a JSONL file for which `pick` returns a value,
 * read backwards from the end (its cost does not grow with the file), or
 * `null`. Torn and foreign lines are skipped (`pick` sees only objects).
 *
 * @internal
 */
export async function findLastRecord<T>(
  fs: FileSystem,
  path: string,
  pick: (record: Record<string, unknown>) => T | null,
): Promise<T | null> {
  let found: T | null = null;
  await visitLinesBackwards(fs, path, (line) => {
    const record = parseLogLine(line);
    found = record === null ? null : pick(record);
    return found !== null;
  });
  return found;
}

/**
 * The `seq` of the last line that carries one (-1 when none does: a fresh log,
 * or one written only by another tool). Lines without an integer `seq` and
 * torn lines are skipped, so they never make a record look undelivered.
 *
 * @internal
 */
export async function readLastSeq(fs: FileSystem, path: string): Promise<number> {
  const seq = await findLastRecord(fs, path, (record) =>
    typeof record.seq === 'number' && Number.isInteger(record.seq) ? record.seq : null,
  );
  return seq ?? -1;
}

/**
 * An append-only JSONL log of sequenced records, for a writer that holds the
 * run's lock. Each record is one single-write line. Before its first append it
 * repairs a torn last line (a crash mid-append) by ending it, so the next
 * record starts on a line of its own; readers skip the fragment.
 * `appendOnce` appends only the records whose `seq` the log does not hold yet,
 * which is what makes an outbox redelivery exactly-once.
 *
 * @internal
 */
export class JsonlLog<T extends Sequenced> {
  private repaired = false;
  // The last seq known to be in the log; read once, then kept (the writer holds the lock).
  private lastSeq: number | null = null;

  constructor(
    private readonly fs: FileSystem,
    readonly path: string,
    private readonly onAppend?: (record: T) => void,
  ) {}

  /** The `seq` of the last record in the log (-1 for none), read once and then tracked. */
  async lastSequence(): Promise<number> {
    this.lastSeq ??= await readLastSeq(this.fs, this.path);
    return this.lastSeq;
  }

  /** Appends the records not yet in the log (by `seq`), in order, reports each, and returns how many it appended. */
  async appendOnce(records: readonly T[]): Promise<number> {
    if (records.length === 0) return 0;
    await this.repair();
    let last = await this.lastSequence();
    let appended = 0;
    for (const record of records) {
      if (record.seq <= last) continue;
      await this.fs.appendText(this.path, `${JSON.stringify(record)}\n`);
      last = record.seq;
      this.lastSeq = last;
      appended += 1;
      this.onAppend?.(record);
    }
    return appended;
  }

  // Ends a torn last line with a newline, once per log instance.
  private async repair(): Promise<void> {
    if (this.repaired) return;
    const stat = await this.fs.stat(this.path);
    if (stat !== null && stat.size > 0) {
      const last = await this.fs.readBytes(this.path, stat.size - 1, 1);
      if (last !== null && last[0] !== 0x0a) await this.fs.appendText(this.path, '\n');
    }
    this.repaired = true;
  }
}
