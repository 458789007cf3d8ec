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
 * One readable line for a loop result (no trailing newline): the stop, what it means, the iterations, the last score,
 * the spend, the exit code {@link exitCodeFor} gives it, and the reason. @public
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
