import { oneLine } from '../../kit/markdown.js';
import type { StopReason } from '../contracts/stop-reason.js';
import type { LoopResult, LoopStepResult } from '../loop-result.js';
import { exitCodeFor } from './exit-code.js';
import { field, fieldList, formatUsd, objectArgument, unknownValue } from './line-text.js';

// What each stop means to the person reading the line.
const STOP_WORDING: Readonly<Record<StopReason, string>> = {
  complete: 'goal met',
  ask_user: 'waiting for a human',
  blocked: 'blocked',
  max_iterations: 'iteration bound reached',
  no_progress: 'no progress',
  budget_exhausted: 'budget spent',
  evaluation_error: 'goal could not be evaluated',
  aborted: 'aborted, resumable',
  dry_run: 'dry run',
};

/**
 * One readable line for a loop result (no trailing newline): the stop, what
 * it means, the iterations, the last score, the spend, the exit code
 * {@link exitCodeFor} gives it, and the reason. A step result that goes on
 * (`done: false`) names the stages the next step reruns. Every value is
 * flattened onto the line and a missing one prints `?`; a non-object, or a
 * stop outside the union, throws `INVALID_OPTIONS` naming it. Pure.
 *
 * @example
 * ```ts
 * const result = await loop.run();
 * console.log(formatResult(result));
 * // complete (goal met) after 2 iteration(s), run-wide iteration 2, score 100, spent $0.05, exit 0 — Goal notes-release met.
 * process.exitCode = exitCodeFor(result);
 * ```
 * @public
 */
export function formatResult(result: LoopResult | LoopStepResult): string {
  const value = objectArgument(result, 'formatResult(result)');
  const evaluation = value.evaluation;
  const score =
    evaluation === null
      ? 'not evaluated'
      : `score ${field(typeof evaluation === 'object' ? (evaluation as { score?: unknown }).score : undefined)}`;
  const figures = `after ${field(value.iterations)} iteration(s), run-wide iteration ${field(value.iteration)}, ${score}, spent ${formatUsd(value.spentUsd)}`;
  const reason = typeof value.reason === 'string' ? oneLine(value.reason) : '';
  const tail = reason === '' ? '' : ` — ${reason}`;
  const stoppedOn = value.stoppedOn;
  if (stoppedOn === null) {
    return `continuing ${figures}; the next step reruns ${fieldList(value.rerunStages, 'no stage')}${tail}`;
  }
  if (typeof stoppedOn !== 'string' || !Object.hasOwn(STOP_WORDING, stoppedOn))
    throw unknownValue('formatResult(result)', 'result', 'stoppedOn', stoppedOn);
  const stop = stoppedOn as StopReason;
  return `${stop} (${STOP_WORDING[stop]}) ${figures}, exit ${exitCodeFor({ stoppedOn: stop })}${tail}`;
}
