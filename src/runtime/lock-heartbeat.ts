import type { FileSystem } from '../ports/file-system.js';
import { type HeartbeatAge, judgeHeartbeat, trustsHeartbeat } from './lock-age.js';
import { latestChange, readLockFile } from './lock-file.js';
import { heartbeatPath, type LockRecord, parseLockRecord, readLockRecord } from './lock-record.js';

// Heartbeat ages by the reader's clock, and the sweep of leftovers of holders that stopped beating.

// The heartbeat file's time, else the lock's own; a heartbeat file that is not this token's record is ignored.
async function lastHeartbeat(fs: FileSystem, lockPath: string, held: LockRecord): Promise<number> {
  const path = heartbeatPath(lockPath, held.token);
  const reading = path === null ? null : await readLockFile(fs, path);
  const beat = reading !== null && 'text' in reading && reading.text !== null ? parseLockRecord(reading.text) : null;
  return beat?.token === held.token ? Math.max(held.heartbeat_at, beat.heartbeat_at) : held.heartbeat_at;
}

/** By the recorded time, or by the files' mtime when that lies more than `aheadLimitMs` ahead. @internal */
export async function recordAge(
  fs: FileSystem,
  files: readonly string[],
  recordedAt: number,
  now: number,
  aheadLimitMs: number,
): Promise<HeartbeatAge> {
  const changedAt = trustsHeartbeat(recordedAt, now, aheadLimitMs) ? null : await latestChange(fs, files);
  return judgeHeartbeat(recordedAt, changedAt, now, aheadLimitMs);
}

/** The age of `held`'s last beat (heartbeat file, else the lock's time), judged by {@link recordAge}. @internal */
export async function heartbeatAge(
  fs: FileSystem,
  lockPath: string,
  held: LockRecord,
  now: number,
  aheadLimitMs: number,
): Promise<HeartbeatAge> {
  const beat = heartbeatPath(lockPath, held.token);
  const files = beat === null ? [lockPath] : [lockPath, beat];
  return recordAge(fs, files, await lastHeartbeat(fs, lockPath, held), now, aheadLimitMs);
}

/** Removes claims and heartbeat files (but `keep`) older than `timeoutMs`; unreadable ones are left alone. @internal */
export async function sweepLockLeftovers(
  fs: FileSystem,
  lockPath: string,
  keep: string | null,
  now: number,
  timeoutMs: number,
): Promise<void> {
  const slash = lockPath.lastIndexOf('/');
  const name = lockPath.slice(slash + 1);
  for (const entry of (await fs.list(slash < 0 ? '.' : lockPath.slice(0, slash))) ?? []) {
    if (!entry.startsWith(`${name}.takeover-`) && !entry.startsWith(`${name}.beat-`)) continue;
    const path = `${lockPath}${entry.slice(name.length)}`;
    if (path === keep) continue;
    const left = await readLockRecord(fs, path, 0).catch(() => null);
    if (left === null) continue;
    const { ageMs } = await recordAge(fs, [path], left.heartbeat_at, now, timeoutMs);
    if (ageMs > timeoutMs) await fs.remove(path);
  }
}
