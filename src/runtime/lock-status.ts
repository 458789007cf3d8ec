import type { Issue } from '../errors.js';
import type { FileSystem } from '../ports/file-system.js';
import { type LockFileReading, notAFileMessage, readLockFile } from './lock-file.js';
import { heartbeatAge } from './lock-heartbeat.js';
import { holderState, type LockHolderState } from './lock-holder.js';
import { parseLockRecord, UNREADABLE_LOCK_OWNER } from './lock-record.js';

/**
 * What a run's lock file tells, read without taking, refreshing or removing
 * it: who holds the lock, when the holder last beat, and whether its process
 * is still there.
 *
 * @public
 */
export interface RunLockStatus {
  /** The holder's owner name (`unknown (unreadable lock file)` for a file that is not a lock record). */
  readonly owner: string;
  /** The holder's process id, when the lock records one. */
  readonly pid: number | null;
  /** The holder's host identity, when the lock records one. */
  readonly host: string | null;
  /**
   * Milliseconds since the holder last beat (its heartbeat file, else the lock's own time; 0 for one a little ahead
   * of this clock). A heartbeat further ahead than `timeoutMs` is not believed (an issue says so): this is then the
   * time since the lock's files last changed, which is what a loop judges it by. For a file that is not a lock
   * record, the time since the file last changed, likewise; `null` when not even that can be read, or when
   * something other than a file is at the lock path (no loop takes that over: it has to be removed).
   */
  readonly heartbeatAgeMs: number | null;
  /**
   * The timeout the lock is judged by: the one the holder promised to beat within, or the lock timeout of the loop
   * the status was read for when that is smaller. A loop takes over a lock whose heartbeat is older than the smaller
   * of the two. For a file that is not a lock record, the reading loop's own (a loop takes such a file over at
   * once); `null` when no loop takes the lock over (something other than a file is there).
   */
  readonly timeoutMs: number | null;
  /**
   * `gone` when the holder ran on this host and the filesystem's process probe (`FileSystem.processes`) says its
   * process no longer exists (a crash, a `kill -9`): a loop started now takes the lock over at once. `alive` when
   * it ran on this host and the probe does not find it gone. `unknown` without a probe, for another host, a lock
   * that names no pid or host, or any doubt: then only `heartbeatAgeMs` against `timeoutMs` tells.
   */
  readonly holder: LockHolderState;
}

/** A lock status and what made it doubtful (the file named in each message). @internal */
export interface LockStatusReading {
  readonly lock: RunLockStatus | null;
  readonly issues: readonly Issue[];
}

// The message of whatever a read threw.
const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Reads the lock at `lockPath` as of `now`, as a loop whose lock timeout is
 * `ownTimeoutMs` would judge it (default: the holder's own): `null` when there
 * is no lock file, else its holder (judged gone or alive exactly as a lock
 * takeover judges it: {@link holderState}). Writes nothing, so it never takes,
 * refreshes or removes the lock. Never throws: a lock file that is not a
 * lock record (`invalid_lock`), that cannot be read, or something other than
 * a file at the lock path (`unreadable`, with the message a loop throws) is
 * reported in `issues` and as an `unknown` holder; a heartbeat too far ahead
 * of `now` to be believed, as that loop judges it, is `heartbeat_ahead`.
 *
 * @internal
 */
export async function readLockStatus(
  fs: FileSystem,
  lockPath: string,
  now: number,
  ownTimeoutMs = Number.POSITIVE_INFINITY,
): Promise<LockStatusReading> {
  const name = lockPath.slice(lockPath.lastIndexOf('/') + 1);
  let reading: LockFileReading;
  try {
    reading = await readLockFile(fs, lockPath);
  } catch (error) {
    // A lock file that cannot be read stops every loop the same way: none takes it over, so no timeout applies.
    const issue = { code: 'unreadable', path: [], message: `${name}: ${messageOf(error)}` };
    return unknownHolder(issue, await changedAgo(fs, lockPath, now), null);
  }
  if ('notAFile' in reading)
    return unknownHolder(
      { code: 'unreadable', path: [], message: notAFileMessage(name, reading.notAFile) },
      null,
      null,
    );
  if (reading.text === null) return { lock: null, issues: [] };
  const held = parseLockRecord(reading.text);
  if (held === null) {
    const message = `${name} is not a lock record: a loop takes it over at once (no loop ever holds a lock without one)`;
    return unknownHolder(
      { code: 'invalid_lock', path: [], message },
      await changedAgo(fs, lockPath, now),
      ownTimeoutMs,
    );
  }
  const issues: Issue[] = [];
  // A loop judges a lock by the smaller of the holder's timeout and its own (run-lock.ts).
  const timeoutMs = Math.min(held.timeout_ms, ownTimeoutMs);
  const age = await heartbeatAge(fs, lockPath, held, now, timeoutMs).catch((error: unknown) => {
    issues.push({ code: 'unreadable', path: [], message: `${name}'s heartbeat file: ${messageOf(error)}` });
    return { ageMs: now - held.heartbeat_at, aheadMs: 0, byFileTime: false };
  });
  if (age.byFileTime) issues.push({ code: 'heartbeat_ahead', path: [], message: aheadMessage(name, age.aheadMs) });
  const { owner, pid, host } = held;
  const holder = holderState(held, fs.processes);
  return { lock: { owner, pid, host, heartbeatAgeMs: Math.max(0, Math.round(age.ageMs)), timeoutMs, holder }, issues };
}

// The issue of a heartbeat that lies `aheadMs` ahead of this clock, more than the lock's timeout.
const aheadMessage = (name: string, aheadMs: number): string =>
  `${name}'s heartbeat is ${Math.round(aheadMs / 1000)} s ahead of this clock, more than the lock timeout, so it is not ` +
  "believed: a loop dates the lock by when its files last changed (heartbeatAgeMs), and takes it over once that is older than the loop's lock timeout";

// How long ago the file at `path` last changed, or null when that cannot be told.
async function changedAgo(fs: FileSystem, path: string, now: number): Promise<number | null> {
  const stat = await fs.stat(path).catch(() => null);
  return stat === null ? null : Math.max(0, Math.round(now - stat.mtimeMs));
}

// A lock file that is there but tells no holder: an unknown owner, dated `heartbeatAgeMs` ago when it can be, judged
// by the reading loop's own timeout (null when none was given, or when no loop takes it over).
function unknownHolder(issue: Issue, heartbeatAgeMs: number | null, ownTimeoutMs: number | null): LockStatusReading {
  const timeoutMs = ownTimeoutMs === null || !Number.isFinite(ownTimeoutMs) ? null : ownTimeoutMs;
  const lock: RunLockStatus = {
    owner: UNREADABLE_LOCK_OWNER,
    pid: null,
    host: null,
    heartbeatAgeMs,
    timeoutMs,
    holder: 'unknown',
  };
  return { lock, issues: [issue] };
}
