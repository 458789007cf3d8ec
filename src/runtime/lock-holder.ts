import type { ProcessProbe } from '../ports/process-probe.js';
import { type HeartbeatAge, heartbeatPhrase } from './lock-age.js';
import { type LockRecord, UNREADABLE_LOCK_OWNER } from './lock-record.js';

/**
 * Why a lock was found stale: its holder's heartbeat is older than the
 * timeout, the holder's process is gone from this host, or the file holds no
 * lock record (a kill between its create and its write, or a foreign file).
 *
 * @internal
 */
export type LockStaleReason = 'heartbeat_stale' | 'holder_gone' | 'no_record';

/**
 * What can be told of the process holding a lock: `gone` (it ran on this
 * host and the probe says it no longer exists), `alive` (it ran on this host
 * and the probe does not find it gone), or `unknown`.
 *
 * @public
 */
export type LockHolderState = 'alive' | 'gone' | 'unknown';

/**
 * What the filesystem's probe tells of the process that wrote the record
 * `held`: `gone` or `alive` only when the record names this host (the same
 * host identity as `probe`: host name and pid namespace, for the Node probe)
 * and a pid, and the probe answers. Without a probe, for a record without a
 * host (written before hosts were recorded), from another host (a plain host
 * name written by an older version included), without a pid, or when the
 * probe throws or answers anything but a boolean: `unknown`. Lock takeover
 * takes over at once only a `gone` holder; the others wait for the heartbeat
 * timeout.
 *
 * @internal
 */
export function holderState(held: LockRecord, probe: ProcessProbe | undefined): LockHolderState {
  if (probe === undefined || held.pid === null || held.host === null || held.host === '') return 'unknown';
  // A probe that throws (a host's own implementation) is a doubt, never a verdict.
  try {
    if (held.host !== probe.host) return 'unknown';
    const gone = probe.isGone(held.pid);
    return gone === true ? 'gone' : gone === false ? 'alive' : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The host a lock record written now names: the probe's identity, or null without one (or when it throws). @internal */
export function probedHost(probe: ProcessProbe | undefined): string | null {
  try {
    return probe?.host || null;
  } catch {
    return null;
  }
}

/**
 * Whether the record `held` (a lock, or a takeover claim) whose writer last
 * beat `ageMs` ago is stale, and why: its heartbeat is older than
 * `staleAfterMs` (the rule for every holder), or else its writer ran on this
 * host and its process is gone (`probe`, the filesystem's
 * `FileSystem.processes`, is asked only then); a file that holds no lock
 * record was never a holder, and is stale at once. `null`: held.
 *
 * @internal
 */
export function staleReason(
  held: LockRecord,
  ageMs: number,
  staleAfterMs: number,
  probe: ProcessProbe | undefined,
): LockStaleReason | null {
  if (held.owner === UNREADABLE_LOCK_OWNER) return 'no_record';
  if (ageMs > staleAfterMs) return 'heartbeat_stale';
  return holderState(held, probe) === 'gone' ? 'holder_gone' : null;
}

/**
 * The `RUN_LOCKED` message for a lock held by `held`, whose heartbeat is
 * `age` old and goes stale after `staleAfterMs`: who holds it, and how a
 * resuming loop takes over sooner a lock whose holder it cannot see is gone.
 *
 * @internal
 */
export function lockedMessage(lockPath: string, held: LockRecord, age: HeartbeatAge, staleAfterMs: number): string {
  const staleAfter = `stale after ${Math.round(staleAfterMs / 1000)} s`;
  // Files dated ahead of this clock too leave no time to judge the lock by: it is held until this clock gets there.
  const undated =
    age.byFileTime && age.ageMs < 0
      ? ` Its lock files are dated ${Math.round(-age.ageMs / 1000)} s ahead of this clock too, so no loop takes it over for another ${Math.round((staleAfterMs - age.ageMs) / 1000)} s: remove it by hand if no loop runs.`
      : '';
  const where = held.host === null ? '' : ` on ${held.host}`;
  return (
    `The run is locked by ${held.owner} (pid ${held.pid ?? 'unknown'}${where}, ${heartbeatPhrase(age)}, ${staleAfter}): ` +
    `${lockPath}. A holder whose process is gone from this host ` +
    '(same host name and pid namespace) is taken over at once; one on another host, or still running, only once its heartbeat is stale. If that loop is ' +
    `dead, a resuming loop may pass a smaller lockTimeoutMs to take over a lock whose heartbeat is older than that.${undated}`
  );
}
