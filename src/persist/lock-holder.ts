import { hostname } from 'node:os';
import type { LockRecord } from './lock-record.js';

/**
 * Why a lock was found stale: its holder's heartbeat is older than the
 * timeout, or the holder's process is gone from this host.
 *
 * @internal
 */
export type LockStaleReason = 'heartbeat_stale' | 'holder_gone';

/**
 * What a lock can learn of the processes holding it: the name of this host
 * (written into every lock record), and whether a process on this host is
 * certainly gone.
 *
 * @internal
 */
export interface ProcessProbe {
  /** This host's name, or `null` when it has none to tell (then no holder is ever judged gone). */
  readonly host: string | null;
  /** True only when no process `pid` exists on this host; false when it exists, and in any doubt. */
  readonly isGone: (pid: number) => boolean;
}

// This host's name, or null when Node cannot tell it.
function thisHost(): string | null {
  try {
    const name = hostname();
    return name === '' ? null : name;
  } catch {
    return null;
  }
}

// Signal 0 only checks the process exists. ESRCH: no such process. EPERM: it exists but belongs to another user.
// A pid that is not positive would name a process group (0, negatives), so it is never probed.
function pidIsGone(pid: number): boolean {
  const processObject = globalThis.process;
  if (typeof processObject?.kill !== 'function' || !Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    processObject.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as { code?: unknown } | null)?.code === 'ESRCH';
  }
}

/**
 * The real probe: `os.hostname()` and `process.kill(pid, 0)`.
 *
 * @internal
 */
export const systemProcessProbe: ProcessProbe = { host: thisHost(), isGone: pidIsGone };

/*
 * True when the record `held` was written on this host (it names the same
 * host) by a process that is certainly gone. A record without a host (written
 * before hosts were recorded), from another host, or without a pid is never
 * judged gone: those wait for the heartbeat timeout. Two hosts that share a
 * run directory must have different names (containers sharing one volume
 * included), since a pid means something only on its own host.
 */
function holderIsGone(held: LockRecord, probe: ProcessProbe): boolean {
  return probe.host !== null && held.host === probe.host && held.pid !== null && probe.isGone(held.pid);
}

/**
 * Whether the record `held` (a lock, or a takeover claim) whose writer last
 * beat `ageMs` ago is stale, and why: its heartbeat is older than
 * `staleAfterMs` (the rule for every holder), or else its writer ran on this
 * host and its process is gone (`probe` is asked only then). `null`: held.
 *
 * @internal
 */
export function staleReason(
  held: LockRecord,
  ageMs: number,
  staleAfterMs: number,
  probe: ProcessProbe,
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
    `stale after ${Math.round(staleAfterMs / 1000)} s): ${lockPath}. A holder whose process is gone from this host is ` +
    'taken over at once; one on another host, or still running, only once its heartbeat is stale. If that loop is ' +
    'dead, a resuming loop may pass a smaller lockTimeoutMs to take over a lock whose heartbeat is older than that.'
  );
}
