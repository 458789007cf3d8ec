import type { Clock } from '../ports/clock.js';
import type { RunLock } from './run-lock.js';

// The reason the heartbeat's sleep is cancelled with (cheaper than a DOMException per call).
const HEARTBEAT_DONE = Object.freeze({ name: 'HeartbeatDone' });

/**
 * Runs `work` while refreshing the lock's heartbeat every `intervalMs`, so a long stage or a slow evaluation does not
 * let the lock go stale. @internal
 */
export async function withHeartbeat<T>(
  lock: RunLock,
  clock: Clock,
  intervalMs: number,
  work: (lost: AbortSignal) => Promise<T>,
): Promise<T> {
  const stop = new AbortController();
  const lostSignal = new AbortController();
  let lost: unknown;
  const beat = (async () => {
    while (!stop.signal.aborted) {
      await clock.sleep(intervalMs, stop.signal);
      await lock.heartbeat(true);
    }
  })().catch((error: unknown) => {
    if (stop.signal.aborted) return;
    lost = error;
    lostSignal.abort(error);
  });
  try {
    const result = await work(lostSignal.signal);
    if (lost !== undefined) throw lost;
    return result;
  } finally {
    stop.abort(HEARTBEAT_DONE);
    await beat;
  }
}
