import { parseJsonText } from '../errors.js';
import { joinPath } from '../kit/paths.js';
import type { FileSystem } from '../ports/file-system.js';
import { readTextOrRefusal } from '../runtime/contained-read.js';
import { findLastRecord } from '../runtime/jsonl-log.js';
import type { GoalEvaluation } from './core/evaluate.js';

/**
 * The iteration of the latest `loop_iteration_started` event in an
 * events.jsonl, read backwards from the end (its cost does not grow with the
 * log), or `null` when there is none. Torn and foreign lines are skipped; an
 * `iteration` that is not a safe counter is `STATE_CORRUPT` naming the file and field.
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

/**
 * Where the loop keeps the whole evaluation of iteration `n`:
 * `<runDir>/iterations/<n>/evaluation.json`. Pure.
 *
 * @public
 */
export function iterationEvaluationPath(runDir: string, iteration: number): string {
  return joinPath(runDir, `iterations/${iteration}/evaluation.json`);
}

/**
 * Writes the whole evaluation of iteration `n` to {@link iterationEvaluationPath}, so a host can see what failed in
 * any past iteration. Atomic but not synced on its own: the record written next, which holds the evaluation's
 * decision, is, and a copy a power loss takes back reads as an iteration without one.
 *
 * @internal
 */
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

/**
 * The whole evaluation of iteration `n` as the loop wrote it, or `null` when there is none (an iteration cut off
 * before its evaluation, a file that is not a JSON object).
 *
 * @internal
 */
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

/**
 * The evaluation of the latest iteration that has one, from iteration `n` back (an iteration cut off before its
 * evaluation has none), or `null`.
 *
 * @internal
 */
export async function readLatestEvaluation(
  fs: FileSystem,
  runDir: string,
  iteration: number,
): Promise<GoalEvaluation | null> {
  return (
    (await readIterationEvaluation(fs, runDir, iteration)) ?? (await readIterationEvaluation(fs, runDir, iteration - 1))
  );
}
