import type { StopReason } from '../contracts/stop-reason.js';

/** The CLI exit code of each stop reason, for wrappers. @public */
export const EXIT_CODES: Readonly<Record<StopReason, number>> = Object.freeze({
  complete: 0,
  dry_run: 0,
  blocked: 3,
  ask_user: 4,
  max_iterations: 5,
  no_progress: 6,
  budget_exhausted: 7,
  evaluation_error: 8,
  aborted: 130,
});

/** Maps a loop result to a CLI exit code by `EXIT_CODES` (goal-loop/contracts): 0 only for `complete` and `dry_run`. @public */
export function exitCodeFor(result: { readonly stoppedOn: StopReason }): number {
  const { stoppedOn } = result;
  // The table is the whole mapping; a value outside the union (from untyped callers) is an error, not a default.
  if (!Object.hasOwn(EXIT_CODES, stoppedOn)) throw new Error(`unknown stop reason ${String(stoppedOn)}`);
  return EXIT_CODES[stoppedOn];
}
