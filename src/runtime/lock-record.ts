import { GoalLoopError } from '../errors.js';
import type { FileSystem } from '../ports/file-system.js';
import { notAFileMessage, readLockFile } from './lock-file.js';

/** The lock file's record: owner, fencing token (fresh per acquisition), pid, host, taken-at, timeout. @internal */
export interface LockRecord {
  readonly owner: string;
  readonly token: string;
  readonly pid: number | null;
  readonly host: string | null;
  readonly heartbeat_at: number;
  readonly heartbeat_iso: string;
  readonly timeout_ms: number;
}

/** Parses a lock file's text; `null` when it is not a lock record (torn, foreign, non-finite numbers). @internal */
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

/** One JSON line: what the lock file, a takeover claim and a heartbeat file hold. @internal */
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

/** Atomic, never synced: no process holds a lock after a power loss, and a torn record reads as no holder's. @internal */
export const LOCK_WRITE = { sync: false } as const;

/** The owner of a lock file that is not a lock record. @internal */
export const UNREADABLE_LOCK_OWNER = 'unknown (unreadable lock file)';

/** `null` when missing; an unparsable record reads as an unknown owner beating at its mtime; a non-file is `IO_ERROR`. @internal */
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

/** `<lock>.beat-<token>`, or `null` for a token that cannot name a file (empty or foreign). @internal */
export function heartbeatPath(lockPath: string, token: string): string | null {
  return /^[A-Za-z0-9-]{1,64}$/.test(token) ? `${lockPath}.beat-${token}` : null;
}

/** True when two reads of the lock saw the same acquisition. @internal */
export function sameLockRecord(a: LockRecord, b: LockRecord): boolean {
  return a.owner === b.owner && a.token === b.token && a.heartbeat_at === b.heartbeat_at;
}
