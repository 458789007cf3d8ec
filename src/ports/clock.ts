/** The clock port. @public */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms` milliseconds; rejects with the signal's reason when it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * Creates the real {@link Clock}: `now()` is `Date.now()`, and `sleep` is a timer that an `AbortSignal` cancels (the
 * timer is cleared and the promise rejects with `signal.reason`). @public
 */
export function createSystemClock(): Clock {
  return { now: () => Date.now(), sleep: sleepFor };
}

/** The shared real clock (stateless, so one instance serves every caller). @public */
export const systemClock: Clock = createSystemClock();

// Resolves after `ms` milliseconds unless the signal aborts first.
function sleepFor(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      // setTimeout fires at once past 2^31-1 ms, so clamp; NaN counts as 0.
      Math.min(Math.max(0, ms || 0), 2_147_483_647),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
