import { z } from 'zod';
import { optionShapeOf, refuseInvalidOptions } from '../errors.js';

/**
 * What `GoalLoop.run()` and `GoalLoop.step()` do on a run whose last session already stopped:
 *
 * - `'new-session'` (the default): open a new session whose iterations continue the run-wide counter, as a human
 *   re-running after answering an `ask_user` stop wants.
 * - `'return-stop'`: return the recorded stop and change nothing. The check is made under the run's lock, so a
 *   queue worker given a duplicate delivery of a run's job never records a second decision, even when the
 *   duplicate arrives while the step that stopped the run still holds the lock.
 *
 * @public
 */
export type IfStopped = 'new-session' | 'return-stop';

/**
 * Options of `GoalLoop.run()` and `GoalLoop.step()`.
 *
 * @public
 */
export interface LoopRunOptions {
  /**
   * On a run whose last session stopped: open a new session (`'new-session'`, the default) or return the recorded
   * stop, under the lock, writing nothing (`'return-stop'`). A run with no session yet, or with one still going
   * (crashed, killed, aborted, or between the steps of a queue), is started or resumed either way.
   */
  readonly ifStopped?: IfStopped;
}

// Every option has an entry (checked against LoopRunOptions): a misspelt one is an error, never silently the default
// (which would open a second session).
const runOptionShape = optionShapeOf<LoopRunOptions>()({
  ifStopped: z
    .enum(['new-session', 'return-stop'], {
      error: (issue) => `ifStopped must be "new-session" or "return-stop" (got ${JSON.stringify(issue.input)})`,
    })
    .optional(),
});

/**
 * The options of one `run()` or `step()` call, checked: a wrong value is `INVALID_OPTIONS` naming the option
 * (`ifStopped`) and the method, an unknown key with the option it most likely misspells. Returns what `ifStopped`
 * resolves to.
 *
 * @internal
 */
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

/**
 * Refuses options of `GoalLoop.events()` or `GoalLoop.evaluate()` that are not what the method takes:
 * `INVALID_OPTIONS` naming the method and each issue's path, an unknown key with the option it most likely
 * misspells.
 *
 * @internal
 */
export function checkCallOptions(method: 'events' | 'evaluate', options: unknown): void {
  refuseInvalidOptions(`GoalLoop.${method}()`, method === 'events' ? eventsOptionShape : evaluateOptionShape, options);
}
