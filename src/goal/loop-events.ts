import { parseJsonText } from '../errors.js';
import { joinPath } from '../kit/paths.js';
import type { FileSystem } from '../ports/file-system.js';
import { readTextOrRefusal } from '../runtime/contained-read.js';
import { findLastRecord } from '../runtime/jsonl-log.js';
import type { GoalEvaluation } from './core/evaluate.js';

/**
 * The iteration of the latest `loop_iteration_started` in an events.jsonl, read from the end, or `null`; a bad
 * `iteration` is `STATE_CORRUPT`.
 *
 * @example
 * ```ts
 * const iteration = await readLatestIterationStarted(fs, '.goal-loop/runs/r-42/events.jsonl');
 * ```
 * @public
 */
export function readLatestIterationStarted(fs: FileSystem, eventsPath: string): Promise<number | null> {
  return findLastRecord(fs, eventsPath, (record, counter) =>
    record.type === 'loop_iteration_started' ? counter('iteration') : null,
  );
}

/** Where the loop keeps iteration `n`'s whole evaluation: `<runDir>/iterations/<n>/evaluation.json`. Pure. @public */
export function iterationEvaluationPath(runDir: string, iteration: number): string {
  return joinPath(runDir, `iterations/${iteration}/evaluation.json`);
}

/** Atomic, unsynced: the next record, which holds the decision, is synced. @internal */
export async function writeIterationEvaluation(
  fs: FileSystem,
  runDir: string,
  iteration: number,
  evaluation: GoalEvaluation,
): Promise<void> {
  await fs.writeText(iterationEvaluationPath(runDir, iteration), `${JSON.stringify(evaluation, null, 2)}\n`, {
    sync: false,
  });
}

/** Iteration `n`'s evaluation as written, or `null` (cut off before it, or not a JSON object). @internal */
export async function readIterationEvaluation(
  fs: FileSystem,
  runDir: string,
  iteration: number,
): Promise<GoalEvaluation | null> {
  if (iteration < 1) return null;
  const text = await readTextOrRefusal(fs, iterationEvaluationPath(runDir, iteration));
  // A file that cannot be read (a FIFO, bytes that are not UTF-8) is no evaluation, as one that is not JSON.
  if (typeof text !== 'string') return null;
  const json = parseJsonText(text);
  return json.ok && typeof json.value === 'object' && json.value !== null ? (json.value as GoalEvaluation) : null;
}

/** The latest evaluation from iteration `n` back, or `null`. @internal */
export async function readLatestEvaluation(
  fs: FileSystem,
  runDir: string,
  iteration: number,
): Promise<GoalEvaluation | null> {
  return (
    (await readIterationEvaluation(fs, runDir, iteration)) ?? (await readIterationEvaluation(fs, runDir, iteration - 1))
  );
}
