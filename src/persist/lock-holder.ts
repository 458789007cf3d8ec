import type { ProcessProbe } from '../ports/process-probe.js';
import type { LockRecord } from './lock-record.js';

/**
 * Why a lock was found stale: its holder's heartbeat is older than the
 * timeout, or the holder's process is gone from this host.
 *
 * @internal
 */
export type LockStaleReason = 'heartbeat_stale' | 'holder_gone';

/*
 * True when the record `held` was written on this host (it names the same host
 * identity as `probe`: host name and pid namespace, for the Node probe) by a
 * process that is certainly gone. Without a probe, or for a record without a
 * host (written before hosts were recorded), from another host (a plain host
 * name written by an older version included), or without a pid, never: those
 * wait for the heartbeat timeout.
 */
function holderIsGone(held: LockRecord, probe: ProcessProbe | undefined): boolean {
  if (probe === undefined || held.pid === null || held.host === null || held.host === '') return false;
  // A probe that throws (a host's own implementation) is a doubt: the holder is not judged gone.
  try {
    return held.host === probe.host && probe.isGone(held.pid) === true;
  } catch {
    return false;
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
 * `FileSystem.processes`, is asked only then). `null`: held.
 *
 * @internal
 */
export function staleReason(
  held: LockRecord,
  ageMs: number,
  staleAfterMs: number,
  probe: ProcessProbe | undefined,
): LockStaleReason | null {
  if (ageMs > staleAfterMs) return 'heartbeat_stale';
  return holderIsGone(held, probe) ? 'holder_gone' : null;
}

/**
 * The `RUN_LOCKED` message for a lock held by `held`, whose heartbeat is
 * `ageMs` old and goes stale after `staleAfterMs`: who holds it, and how a
 * resuming loop takes over sooner a lock whose holder it cannot see is gone.
 *
 * @internal
 */
export function lockedMessage(lockPath: string, held: LockRecord, ageMs: number, staleAfterMs: number): string {
  const where = held.host === null ? '' : ` on ${held.host}`;
  return (
    `The run is locked by ${held.owner} (pid ${held.pid ?? 'unknown'}${where}, heartbeat ${Math.round(ageMs / 1000)} s ago, ` +
    `stale after ${Math.round(staleAfterMs / 1000)} s): ${lockPath}. A holder whose process is gone from this host ` +
    '(same host name and pid namespace) is taken over at once; one on another host, or still running, only once its heartbeat is stale. If that loop is ' +
    'dead, a resuming loop may pass a smaller lockTimeoutMs to take over a lock whose heartbeat is older than that.'
  );
}
