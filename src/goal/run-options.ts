import { z } from 'zod';
import { optionShapeOf, refuseInvalidOptions } from '../errors.js';

/**
 * What `GoalLoop.run()` and `GoalLoop.step()` do on a run whose last session stopped: `'new-session'` (default) opens
 * a new session; `'return-stop'` returns the recorded stop, changing nothing, checked under the lock so a duplicate
 * queue delivery never records a second decision.
 *
 * @public
 */
export type IfStopped = 'new-session' | 'return-stop';

/** Options of `GoalLoop.run()` and `GoalLoop.step()`. @public */
export interface LoopRunOptions {
  /** On a stopped run: a new session (default) or the recorded stop; an unfinished run is resumed either way. */
  readonly ifStopped?: IfStopped;
}

// A misspelt option is an error, never the default (which would open a second session).
const runOptionShape = optionShapeOf<LoopRunOptions>()({
  ifStopped: z
    .enum(['new-session', 'return-stop'], {
      error: (issue) => `ifStopped must be "new-session" or "return-stop" (got ${JSON.stringify(issue.input)})`,
    })
    .optional(),
});

/** Checks one `run()`/`step()` call's options (`INVALID_OPTIONS`); what `ifStopped` resolves to. @internal */
export function ifStoppedOf(method: 'run' | 'step', options: LoopRunOptions): IfStopped {
  refuseInvalidOptions(`GoalLoop.${method}()`, runOptionShape, options);
  return options.ifStopped ?? 'new-session';
}

// The options of `events()` and `evaluate()`, checked the same way: a misspelt `skipCommands` would run the commands.
const eventsOptionShape = {
  signal: z
    .custom<AbortSignal>((value) => typeof value === 'object' && value !== null && 'aborted' in value, {
      message: 'signal must be an AbortSignal',
    })
    .optional(),
};
const evaluateOptionShape = { skipCommands: z.boolean().optional() };

/** Checks `events()`/`evaluate()` options: `INVALID_OPTIONS` naming the method and each path. @internal */
export function checkCallOptions(method: 'events' | 'evaluate', options: unknown): void {
  refuseInvalidOptions(`GoalLoop.${method}()`, method === 'events' ? eventsOptionShape : evaluateOptionShape, options);
}
