import { GoalLoopError } from '../errors.js';
import type { FileSystem } from '../ports/file-system.js';
import { notAFileMessage, readLockFile } from './lock-file.js';

/**
 * What the run lock file holds: its owner, the fencing `token` of the
 * acquisition (fresh each time the lock is taken), the process id and the
 * host it runs on (`null` in records written before hosts were recorded), when
 * the lock was taken, and the timeout its holder beats within. A holder's later
 * heartbeats go to its own heartbeat file ({@link heartbeatPath}), which holds
 * a record of the same shape; the lock file itself is written once per
 * acquisition.
 *
 * @internal
 */
export interface LockRecord {
  readonly owner: string;
  readonly token: string;
  readonly pid: number | null;
  readonly host: string | null;
  readonly heartbeat_at: number;
  readonly heartbeat_iso: string;
  readonly timeout_ms: number;
}

/**
 * Parses a lock file's text, or `null` when it is not a lock record (torn,
 * foreign, or with a heartbeat or timeout that is not a finite number). A
 * record written before tokens existed reads with an empty token.
 *
 * @internal
 */
export function parseLockRecord(text: string): LockRecord | null {
  let value: Partial<Record<keyof LockRecord, unknown>>;
  try {
    value = JSON.parse(text) as typeof value;
  } catch {
    return null;
  }
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof value.owner !== 'string' ||
    !Number.isFinite(value.heartbeat_at) ||
    !Number.isFinite(value.timeout_ms)
  )
    return null;
  return {
    owner: value.owner,
    token: typeof value.token === 'string' ? value.token : '',
    // Only a pid that can name one process (a tampered 0 or -1 would name a process group).
    pid: Number.isSafeInteger(value.pid) && (value.pid as number) > 0 ? (value.pid as number) : null,
    host: typeof value.host === 'string' && value.host !== '' ? value.host : null,
    heartbeat_at: value.heartbeat_at as number,
    heartbeat_iso: String(value.heartbeat_iso ?? ''),
    timeout_ms: value.timeout_ms as number,
  };
}

/**
 * The text of a lock record (one JSON line) for `owner`'s acquisition `token`
 * at `now`, with this process's id and `host`: what the lock file, a takeover
 * claim and a heartbeat file hold.
 *
 * @internal
 */
export function formatLockRecord(
  owner: string,
  token: string,
  timeoutMs: number,
  now: number,
  host: string | null,
): string {
  const pid = typeof globalThis.process?.pid === 'number' ? globalThis.process.pid : null;
  const record: LockRecord = {
    owner,
    token,
    pid,
    host,
    heartbeat_at: now,
    heartbeat_iso: new Date(now).toISOString(),
    timeout_ms: timeoutMs,
  };
  return `${JSON.stringify(record)}\n`;
}

/**
 * How lock record files are written: atomically, never synced. They matter only while their writer runs, and no
 * process holds a lock after a power loss (a record a crash left torn or empty reads as no holder's).
 *
 * @internal
 */
export const LOCK_WRITE = { sync: false } as const;

/** The owner of a lock file that is not a lock record. @internal */
export const UNREADABLE_LOCK_OWNER = 'unknown (unreadable lock file)';

/**
 * Reads a lock record (the lock file, a heartbeat file or a takeover claim),
 * or `null` when the file is missing. A file that is not a lock record (torn,
 * foreign, not UTF-8, longer than any record) reads as an unknown owner with
 * no token, last beating when the file last changed. Something other than a
 * regular file there is an `IO_ERROR` that names the path and says to remove
 * it: the library never replaces it.
 *
 * @internal
 */
export async function readLockRecord(fs: FileSystem, path: string, timeoutMs: number): Promise<LockRecord | null> {
  const reading = await readLockFile(fs, path);
  if ('notAFile' in reading) throw new GoalLoopError('IO_ERROR', notAFileMessage(path, reading.notAFile));
  if (reading.text === null) return null;
  const parsed = parseLockRecord(reading.text);
  if (parsed !== null) return parsed;
  const stat = await fs.stat(path);
  return {
    owner: UNREADABLE_LOCK_OWNER,
    token: '',
    pid: null,
    host: null,
    heartbeat_at: stat?.mtimeMs ?? 0,
    heartbeat_iso: '',
    timeout_ms: timeoutMs,
  };
}

/**
 * The heartbeat file of the acquisition holding `token` (`<lock>.beat-<token>`),
 * or `null` for a token that cannot name a file (empty, as in a record
 * written before tokens existed, or foreign).
 *
 * @internal
 */
export function heartbeatPath(lockPath: string, token: string): string | null {
  return /^[A-Za-z0-9-]{1,64}$/.test(token) ? `${lockPath}.beat-${token}` : null;
}

/**
 * True when two reads of the lock saw the same acquisition.
 *
 * @internal
 */
export function sameLockRecord(a: LockRecord, b: LockRecord): boolean {
  return a.owner === b.owner && a.token === b.token && a.heartbeat_at === b.heartbeat_at;
}
