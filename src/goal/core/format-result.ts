import type { StopReason } from '../contracts/stop-reason.js';
import type { LoopResult, LoopStepResult } from '../loop-result.js';
import { exitCodeFor } from './exit-code.js';
import { formatUsd, oneLine } from './format-event.js';

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
 * (`done: false`) names the stages the next step reruns. Pure.
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
  const score = result.evaluation === null ? 'not evaluated' : `score ${result.evaluation.score}`;
  const figures = `after ${result.iterations} iteration(s), run-wide iteration ${result.iteration}, ${score}, spent ${formatUsd(result.spentUsd)}`;
  const reason = oneLine(result.reason);
  const tail = reason === '' ? '' : ` — ${reason}`;
  if (result.stoppedOn === null) {
    const next = result.rerunStages.length === 0 ? 'no stage' : result.rerunStages.join(', ');
    return `continuing ${figures}; the next step reruns ${next}${tail}`;
  }
  if (!Object.hasOwn(STOP_WORDING, result.stoppedOn))
    throw new Error(`unknown stop reason ${String(result.stoppedOn)}`);
  return `${result.stoppedOn} (${STOP_WORDING[result.stoppedOn]}) ${figures}, exit ${exitCodeFor(result)}${tail}`;
}
