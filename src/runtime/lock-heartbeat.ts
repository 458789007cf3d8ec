import type { FileSystem } from '../ports/file-system.js';
import { type HeartbeatAge, judgeHeartbeat, trustsHeartbeat } from './lock-age.js';
import { latestChange, readLockFile } from './lock-file.js';
import { heartbeatPath, type LockRecord, parseLockRecord, readLockRecord } from './lock-record.js';

// When a lock's holder last beat and how old that is by the reader's clock, and the sweep of the files that
// holders which stopped beating left next to the lock.

// When the holder of the lock record `held` last beat, by its own clock: the time in its heartbeat file, or the
// lock's own when it has none (it has not beaten yet). A heartbeat file that is no lock record of that token (another
// token's, torn, a directory) is not consulted.
async function lastHeartbeat(fs: FileSystem, lockPath: string, held: LockRecord): Promise<number> {
  const path = heartbeatPath(lockPath, held.token);
  const reading = path === null ? null : await readLockFile(fs, path);
  const beat = reading !== null && 'text' in reading && reading.text !== null ? parseLockRecord(reading.text) : null;
  return beat?.token === held.token ? Math.max(held.heartbeat_at, beat.heartbeat_at) : held.heartbeat_at;
}

/**
 * The age at `now` of a record written at `recordedAt` whose writer's files
 * are `files` (the lock and its heartbeat file, or a claim): by the recorded
 * time, or, when that lies more than `aheadLimitMs` ahead of `now`, by when
 * the files last changed (asked of the filesystem only then).
 *
 * @internal
 */
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

/**
 * How long ago, at `now`, the holder of the lock `held` at `lockPath` last
 * beat (its heartbeat file, else the lock's own time), judged by
 * {@link recordAge} against `aheadLimitMs`.
 *
 * @internal
 */
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

/**
 * Removes the takeover claims and heartbeat files next to the lock at
 * `lockPath` (all but `keep`) last written more than `timeoutMs` before `now`
 * (judged as {@link recordAge} judges them): what loops killed mid-takeover,
 * or taken over, left behind. One that cannot be read is left alone.
 *
 * @internal
 */
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
