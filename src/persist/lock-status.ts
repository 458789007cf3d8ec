import { type Issue, isInvalidUtf8Error } from '../errors.js';
import type { FileSystem } from '../ports/file-system.js';
import { holderState, type LockHolderState } from './lock-holder.js';
import { lastHeartbeat, parseLockRecord, UNREADABLE_LOCK_OWNER } from './lock-record.js';

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
   * Milliseconds since the holder last beat (its heartbeat file, else the lock's own time); for a file that is
   * not a lock record, since the file last changed, which is what a loop judges it by; `null` when not even that
   * can be read.
   */
  readonly heartbeatAgeMs: number | null;
  /** The timeout the holder promised to beat within; a loop takes over a lock whose heartbeat is older. */
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
 * Reads the lock at `lockPath` as of `now`: `null` when there is no lock
 * file, else its holder (judged gone or alive exactly as a lock takeover
 * judges it: {@link holderState}). Writes nothing, so it never takes,
 * refreshes or removes the lock. Never throws: a lock file that is not a
 * lock record, or that cannot be read, is reported in `issues` and as an
 * `unknown` holder.
 *
 * @internal
 */
export async function readLockStatus(fs: FileSystem, lockPath: string, now: number): Promise<LockStatusReading> {
  const name = lockPath.slice(lockPath.lastIndexOf('/') + 1);
  let text: string | null;
  try {
    text = await fs.readText(lockPath);
  } catch (error) {
    // Bytes that are not UTF-8 are no lock record, as a loop reads them.
    if (isInvalidUtf8Error(error)) text = '';
    else
      return unreadable(fs, lockPath, now, { code: 'unreadable', path: [], message: `${name}: ${messageOf(error)}` });
  }
  if (text === null) return { lock: null, issues: [] };
  const held = parseLockRecord(text);
  if (held === null) {
    const message = `${name} is not a lock record: a loop takes it over once the file is older than that loop's lock timeout (remove it if no loop runs)`;
    return unreadable(fs, lockPath, now, { code: 'invalid_lock', path: [], message });
  }
  const issues: Issue[] = [];
  const beat = await lastHeartbeat(fs, lockPath, held).catch((error: unknown) => {
    issues.push({ code: 'unreadable', path: [], message: `${name}'s heartbeat file: ${messageOf(error)}` });
    return held.heartbeat_at;
  });
  const { owner, pid, host, timeout_ms: timeoutMs } = held;
  const holder = holderState(held, fs.processes);
  return { lock: { owner, pid, host, heartbeatAgeMs: Math.max(0, now - beat), timeoutMs, holder }, issues };
}

// A lock file that is there but tells no holder: an unknown owner, dated by the file's own time when it can be.
async function unreadable(fs: FileSystem, lockPath: string, now: number, issue: Issue): Promise<LockStatusReading> {
  const stat = await fs.stat(lockPath).catch(() => null);
  const lock: RunLockStatus = {
    owner: UNREADABLE_LOCK_OWNER,
    pid: null,
    host: null,
    heartbeatAgeMs: stat === null ? null : Math.max(0, now - stat.mtimeMs),
    timeoutMs: null,
    holder: 'unknown',
  };
  return { lock, issues: [issue] };
}
