import type { ProcessProbe } from '../ports/process-probe.js';
import { type HeartbeatAge, heartbeatPhrase } from './lock-age.js';
import { type LockRecord, UNREADABLE_LOCK_OWNER } from './lock-record.js';

/** Why a lock is stale: old heartbeat, holder's process gone, or no lock record (foreign or killed mid-create). @internal */
export type LockStaleReason = 'heartbeat_stale' | 'holder_gone' | 'no_record';

/**
 * What can be told of the process holding a lock: `gone` or `alive` (it ran on this host, by the probe), or `unknown`.
 *
 * @public
 */
export type LockHolderState = 'alive' | 'gone' | 'unknown';

/** `gone`/`alive` only for a record naming this host and a pid with a probe that answers; else `unknown`. @internal */
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

/** Stale by heartbeat age, else by a gone process on this host (probe asked only then); no record is stale at once. @internal */
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

/** `RUN_LOCKED`: who holds the lock, and how a resuming loop takes it over sooner. @internal */
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
