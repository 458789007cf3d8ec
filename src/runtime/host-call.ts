import type { Clock } from '../ports/clock.js';
import { type JoinedSignal, joinSignals } from './joined-signal.js';

/** The time limit of a host call when none is given: 10 minutes. @internal */
export const DEFAULT_HOST_CALL_TIMEOUT_MS = 600_000;

/** What bounds one call of a host function (a generator, a critic, a candidate source, …). @internal */
export interface HostCallBounds {
  readonly clock: Clock;
  /** The caller's abort: the call is no longer waited for, and the caller rejects with the signal's reason. */
  readonly signal: AbortSignal;
  /** Time limit of the call, in ms: the call's signal aborts and the call fails, timed out. */
  readonly hostCallTimeoutMs: number;
  /** Keeps a lock fresh while the call runs; `lost` fires when the lock is lost (its reason: `RUN_LOCKED`). */
  readonly heartbeat: <T>(work: (lost: AbortSignal) => Promise<T>) => Promise<T>;
}

/** Its value, or what it threw, or its time limit (`timedOut`, `cause` the abort reason). @internal */
export type HostCallOutcome<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: string; readonly timedOut: boolean; readonly cause: unknown };

// The reason `done` aborts with: nothing reads it, and a given reason spares the DOMException (and its stack) per call.
const SETTLED = 'settled';

/** Rejects with the signal's reason when it fired: a call cut off is not recorded, so a resume makes it again. @internal */
export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason;
}

/** What a host function threw, as text, whatever it was (a value without a string form, a revoked proxy). @internal */
export function describeThrown(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return `a value of type ${typeof error} that has no text form`;
  }
}

/** Resolves `'aborted'` once `signal` fires; its listener goes when `done` fires. @internal */
export function abortedBy(signal: AbortSignal, done: AbortSignal): Promise<'aborted'> {
  if (signal.aborted) return Promise.resolve('aborted');
  return new Promise((resolve) => {
    const onAbort = (): void => resolve('aborted');
    signal.addEventListener('abort', onAbort, { once: true });
    done.addEventListener('abort', () => signal.removeEventListener('abort', onAbort), { once: true });
  });
}

// What the call gave, or what it threw, as an outcome (a synchronous throw included).
async function settle<T>(run: () => T | Promise<T>): Promise<HostCallOutcome<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    return { ok: false, error: describeThrown(error), timedOut: false, cause: error };
  }
}

/** Races a host call against its time limit and abort, so one that ignores its signal cannot hold the lock. @internal */
export async function boundedHostCall<T>(
  bounds: HostCallBounds,
  call: (signal: AbortSignal) => T | Promise<T>,
  late?: (value: T) => void,
): Promise<HostCallOutcome<T>> {
  throwIfAborted(bounds.signal);
  const limit = bounds.hostCallTimeoutMs;
  const timer = new AbortController();
  const done = new AbortController();
  let settled: Promise<HostCallOutcome<T>> | null = null;
  let handedOver = false;
  // No longer waited for: what the call gives (or gave) goes to `late`, once (its cost is still owed).
  const handOver = (): void => {
    if (handedOver || settled === null) return;
    handedOver = true;
    settled.then((later) => later.ok && late?.(later.value)).catch(() => undefined);
  };
  let returned = false;
  const joined: JoinedSignal[] = [];
  try {
    const outcome = await bounds.heartbeat(async (lost) => {
      const joinedStop = joinSignals([bounds.signal, lost]);
      const stop = joinedStop.signal;
      const callSignal = joinSignals([stop, timer.signal]);
      joined.push(joinedStop, callSignal);
      const running = settle(() => call(callSignal.signal));
      settled = running;
      const timedOut = bounds.clock.sleep(limit, done.signal).then(
        () => 'timed out' as const,
        () => new Promise<never>(() => {}),
      );
      const first = await Promise.race([running, timedOut, abortedBy(stop, done.signal)]);
      // The caller's abort, or the lock's loss (RUN_LOCKED): the signal's reason.
      if (first === 'aborted') throw stop.reason;
      if (first !== 'timed out') return first;
      handOver();
      const cause = new Error(`the host call timed out after ${limit} ms`);
      timer.abort(cause);
      return { ok: false, error: `timed out after ${limit} ms`, timedOut: true, cause } as const;
    });
    throwIfAborted(bounds.signal);
    returned = true;
    return outcome;
  } finally {
    done.abort(SETTLED);
    for (const { release } of joined) release();
    // Rejecting (an abort, a lost lock, even after the call had settled in time): the caller records nothing of it.
    if (!returned) handOver();
  }
}
