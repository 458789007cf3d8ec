import type { LoopEvent } from '../goal/contracts/events.js';
import type { FileSystem } from '../ports/file-system.js';
import { parseLogLine, visitLinesBackwards } from './backward-lines.js';

/**
 * The iteration of the latest `loop_iteration_started` event in an
 * events.jsonl, read backwards from the end (its cost does not grow with the
 * log), or `null` when there is none. Torn and foreign lines are skipped.
 *
 * @example
 * ```ts
 * const iteration = await readLatestIterationStarted(fs, '.goal-loop/runs/r-42/events.jsonl');
 * ```
 * @public
 */
export async function readLatestIterationStarted(fs: FileSystem, eventsPath: string): Promise<number | null> {
  let found: number | null = null;
  await visitLinesBackwards(fs, eventsPath, (line) => {
    const event = parseLogLine(line);
    if (event?.type !== 'loop_iteration_started') return false;
    if (typeof event.iteration !== 'number' || !Number.isInteger(event.iteration) || event.iteration < 0) return false;
    found = event.iteration;
    return true;
  });
  return found;
}

/**
 * The `seq` of the last event of an events.jsonl that carries one (-1 when
 * none does: a fresh log, or one written only by another tool), read from
 * the end. Lines without a `seq` (another writer's) and torn lines are
 * skipped, so they never make an event look undelivered.
 *
 * @internal
 */
export async function readLastEventSeq(fs: FileSystem, eventsPath: string): Promise<number> {
  let last = -1;
  await visitLinesBackwards(fs, eventsPath, (line) => {
    const event = parseLogLine(line);
    if (event === null || typeof event.seq !== 'number' || !Number.isInteger(event.seq)) return false;
    last = event.seq;
    return true;
  });
  return last;
}

/**
 * Appends events to an events.jsonl, one single-write line each. Before its
 * first append it repairs a torn last line (a crash mid-append) by ending it,
 * so the next event starts on a line of its own; readers skip the fragment.
 * `appendOnce` appends only the events whose `seq` the log does not hold yet.
 *
 * @internal
 */
export class EventLog {
  private repaired = false;
  // The last seq known to be in the log; read once, then kept (the loop holds the run's lock).
  private lastSeq: number | null = null;

  constructor(
    private readonly fs: FileSystem,
    readonly path: string,
    private readonly onEvent?: (event: LoopEvent) => void,
  ) {}

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

  /** Tells the log the last `seq` already read from it, so the first append need not read it again. */
  knowLastSeq(seq: number): void {
    this.lastSeq ??= seq;
  }

  /** Appends the events not yet in the log (by `seq`), in order, reports each to `onEvent`, and returns how many it appended. */
  async appendOnce(events: readonly LoopEvent[]): Promise<number> {
    if (events.length === 0) return 0;
    let appended = 0;
    await this.repair();
    this.lastSeq ??= await readLastEventSeq(this.fs, this.path);
    for (const event of events) {
      if (event.seq <= this.lastSeq) continue;
      await this.fs.appendText(this.path, `${JSON.stringify(event)}\n`);
      this.lastSeq = event.seq;
      appended += 1;
      this.onEvent?.(event);
    }
    return appended;
  }
}
