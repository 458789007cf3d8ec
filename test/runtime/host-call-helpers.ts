// Bounds and host calls for the tests of boundedHostCall.
import type { HostCallBounds } from '../../src/runtime/host-call.js';
import type { ManualClock } from '../../src/testing/manual-clock.js';

/** One turn of the event loop. */
export const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Bounds on a manual clock, with a heartbeat whose `lost` signal the test fires; `beating` says whether it runs. */
export function bounds(clock: ManualClock, signal: AbortSignal = new AbortController().signal) {
  const lost = new AbortController();
  let beating = false;
  const given: HostCallBounds = {
    clock,
    signal,
    hostCallTimeoutMs: 1_000,
    heartbeat: async (work) => {
      beating = true;
      try {
        return await work(lost.signal);
      } finally {
        beating = false;
      }
    },
  };
  return { given, lost, beating: () => beating };
}

/** A call that never settles and ignores its signal; `seen` holds the signal it got. */
export function hanging() {
  const seen: AbortSignal[] = [];
  const call = (signal: AbortSignal) => {
    seen.push(signal);
    return new Promise<never>(() => {});
  };
  return { seen, call };
}
