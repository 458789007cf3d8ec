import { GoalLoopError } from '../errors.js';
import type { FileSystem } from '../ports/file-system.js';
import { committedLength, parseLogLine, visitLinesBackwards } from './backward-lines.js';

/** A record of a {@link JsonlLog}: any JSON object with its position in the log. @internal */
export interface Sequenced {
  readonly seq: number;
}

/** A counter field of the current record: `null` when absent, a safe integer, else `STATE_CORRUPT` naming the line. @internal */
export type CounterReader = (field: string) => number | null;

// The largest counter value read back from a log (its successor is still a safe integer).
const MAX_COUNTER = Number.MAX_SAFE_INTEGER - 1;

/** Options of {@link findLastRecord}. @internal */
export interface FindOptions {
  /** Skip a last line that has no trailing newline: a torn append the writer will remove (default `false`). */
  readonly committedOnly?: boolean;
}

/** The last object line `pick` accepts, read backwards so the cost does not grow with the file; torn lines skipped. @internal */
export async function findLastRecord<T>(
  fs: FileSystem,
  path: string,
  pick: (record: Record<string, unknown>, counter: CounterReader) => T | null,
  options: FindOptions = {},
): Promise<T | null> {
  let found: T | null = null;
  await visitLinesBackwards(fs, path, (line, position) => {
    if (options.committedOnly === true && !position.terminated) return false;
    const record = parseLogLine(line);
    found = record === null ? null : pick(record, (field) => readCounter(record, field, path, position.fromEnd));
    return found !== null;
  });
  return found;
}

// A counter field of one record: absent is null, in range is the value, anything else names file, line and field.
function readCounter(record: Record<string, unknown>, field: string, path: string, fromEnd: number): number | null {
  if (!Object.hasOwn(record, field)) return null;
  const value = record[field];
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= MAX_COUNTER) return value;
  const line = fromEnd === 0 ? 'the last line' : `line ${fromEnd + 1} from the end`;
  throw new GoalLoopError(
    'STATE_CORRUPT',
    `${path}: field "${field}" of ${line} is ${JSON.stringify(value) ?? String(value)}, not an integer from 0 to ${MAX_COUNTER}; the log was edited or written by another tool — fix or remove that line.`,
    { issues: [{ code: 'counter_out_of_range', path: [field], message: `${path}: ${field} out of range` }] },
  );
}

/** The last committed `seq` (-1 when none); torn and unterminated lines never count as delivered. @internal */
export async function readLastSeq(fs: FileSystem, path: string): Promise<number> {
  const seq = await findLastRecord(fs, path, (_, counter) => counter('seq'), { committedOnly: true });
  return seq ?? -1;
}

/** Append-only sequenced JSONL; drops a torn last line before its first append, `appendOnce` makes redelivery exactly-once. @internal */
export class JsonlLog<T extends Sequenced> {
  private repaired = false;
  // The last seq known to be in the log; read once, then kept (the writer holds the lock).
  private lastSeq: number | null = null;

  constructor(
    private readonly fs: FileSystem,
    readonly path: string,
    private readonly onAppend?: (record: T) => void,
  ) {}

  /** The `seq` of the last committed record in the log (-1 for none), read once and then tracked. */
  async lastSequence(): Promise<number> {
    this.lastSeq ??= await readLastSeq(this.fs, this.path);
    return this.lastSeq;
  }

  /** Appends the records not yet in the log (by `seq`), in order, reports each, and returns how many it appended. */
  async appendOnce(records: readonly T[]): Promise<number> {
    if (records.length === 0) return 0;
    let last = await this.lastSequence();
    await this.repair();
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

  // Cuts a torn last line off (the file ends at its last newline), once per log instance.
  private async repair(): Promise<void> {
    if (this.repaired) return;
    const stat = await this.fs.stat(this.path);
    if (stat !== null && stat.size > 0) {
      const last = await this.fs.readBytes(this.path, stat.size - 1, 1);
      if (last !== null && last[0] !== 0x0a) {
        const keep = await committedLength(this.fs, this.path);
        if (keep !== null) await this.fs.truncate(this.path, keep);
      }
    }
    this.repaired = true;
  }
}
