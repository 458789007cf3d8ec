/**
 * The clock port. Every timestamp and delay of the library comes from here,
 * never from `Date.now()`.
 *
 * @public
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms` milliseconds; rejects with the signal's reason when it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}
