import { GoalLoopError, type Issue, refuseOptions } from '../errors.js';
import type { Clock } from '../ports/clock.js';

/** A `Clock` whose time moves only when a test moves it. @public */
export interface ManualClock extends Clock {
  /** Moves time forward by `ms` and resolves every sleep that is now due, earliest first. */
  advance(ms: number): void;
  /** Sets the time to `ms` (never backwards) and resolves every sleep that is now due. */
  set(ms: number): void;
  /** How many sleeps are waiting. */
  pending(): number;
}

interface Sleeper {
  readonly dueAt: number;
  readonly order: number;
  readonly resolve: () => void;
}

// The issue of a time that is not a finite number (`"x"` would make the clock's time a string, `NaN` stop it).
function timeIssues(name: string, value: unknown): Issue[] {
  if (typeof value === 'number' && Number.isFinite(value)) return [];
  const got =
    typeof value === 'string'
      ? JSON.stringify(value)
      : typeof value === 'object' && value
        ? 'an object'
        : String(value);
  return [{ code: 'invalid_type', path: [name], message: `${name} must be a finite number of ms (got ${got})` }];
}

/**
 * Creates a manual clock starting at `start` ms (a finite number, else `INVALID_OPTIONS` naming `start`; `advance` and
 * `set` refuse a time that is not one the same way). @public
 */
export function createManualClock(start = 0): ManualClock {
  refuseOptions('createManualClock', timeIssues('start', start));
  let current = start;
  let counter = 0;
  let sleepers: Sleeper[] = [];

  // Moves to `time` and wakes the due sleepers in due order (ties in sleep order).
  const moveTo = (time: number): void => {
    if (time < current) {
      throw new GoalLoopError('INVALID_OPTIONS', `the manual clock cannot move from ${current} to ${time}`);
    }
    current = time;
    const due = sleepers
      .filter((sleeper) => sleeper.dueAt <= current)
      .sort((a, b) => a.dueAt - b.dueAt || a.order - b.order);
    sleepers = sleepers.filter((sleeper) => sleeper.dueAt > current);
    for (const sleeper of due) sleeper.resolve();
  };

  return {
    now: () => current,
    advance: (ms) => {
      refuseOptions('ManualClock.advance', timeIssues('ms', ms));
      moveTo(current + ms);
    },
    set: (ms) => {
      refuseOptions('ManualClock.set', timeIssues('ms', ms));
      moveTo(ms);
    },
    pending: () => sleepers.length,
    sleep(ms, signal) {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) {
          reject(signal.reason);
          return;
        }
        if (!(ms > 0)) {
          resolve();
          return;
        }
        const onAbort = (): void => {
          sleepers = sleepers.filter((sleeper) => sleeper !== entry);
          reject(signal?.reason);
        };
        const entry: Sleeper = {
          dueAt: current + ms,
          order: counter++,
          resolve: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
        };
        sleepers.push(entry);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
}
