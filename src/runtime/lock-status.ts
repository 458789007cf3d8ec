import type { Issue } from '../errors.js';
import type { FileSystem } from '../ports/file-system.js';
import { type LockFileReading, notAFileMessage, readLockFile } from './lock-file.js';
import { heartbeatAge } from './lock-heartbeat.js';
import { holderState, type LockHolderState } from './lock-holder.js';
import { parseLockRecord, UNREADABLE_LOCK_OWNER } from './lock-record.js';

/**
 * What a run's lock file tells, read without taking, refreshing or removing it.
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
   * Milliseconds since the holder last beat (0 when a little ahead of this clock). A heartbeat more than `timeoutMs`
   * ahead is not believed: then the time since the lock's files changed. `null` when unreadable or not a file.
   */
  readonly heartbeatAgeMs: number | null;
  /**
   * The smaller of the holder's promised timeout and the reading loop's; a loop takes over a lock whose heartbeat is
   * older. `null` when no loop takes the lock over (something other than a file is there).
   */
  readonly timeoutMs: number | null;
  /**
   * `gone` when the holder ran on this host and `FileSystem.processes` says its process no longer exists (a loop
   * takes over at once); `alive` when not found gone; `unknown` otherwise: only the heartbeat age tells.
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

/** Reads the lock as a takeover would judge it, writing nothing; never throws (faults go to `issues`). @internal */
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

// A lock file that tells no holder: an unknown owner, judged by the reading loop's own timeout.
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
