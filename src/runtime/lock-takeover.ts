import { GoalLoopError, isGoalLoopError } from '../errors.js';
import { fnv1a64 } from '../kit/hash.js';
import type { FileGuard, FileSystem } from '../ports/file-system.js';
import type { HeartbeatAge } from './lock-age.js';
import { readLockFile } from './lock-file.js';
import { recordAge } from './lock-heartbeat.js';
import { staleReason } from './lock-holder.js';
import { heartbeatPath, LOCK_WRITE, type LockRecord, parseLockRecord, sameLockRecord } from './lock-record.js';

// How many crashed takeovers of one stale lock a newcomer steps over before it gives up.
const MAX_CLAIMS = 64;

/** What a newcomer taking over a stale lock brings: the lock, its clock, the records it writes. @internal */
export interface TakeoverParty {
  readonly fs: FileSystem;
  readonly path: string;
  readonly now: () => number;
  /** A record of this newcomer (for a claim). */
  readonly record: () => string;
  /** This newcomer's record for the lock file itself. */
  readonly lockRecord: () => string;
  /** Reads a lock record file (the lock, a claim). */
  readonly read: (path: string) => Promise<LockRecord | null>;
  /** How long ago the holder of `held` last beat. */
  readonly ageOf: (held: LockRecord, staleAfter: number) => Promise<HeartbeatAge>;
}

const tookOverFirst = (path: string, cause?: unknown) =>
  new GoalLoopError('RUN_LOCKED', `Another loop took over the stale lock ${path} first.`, { cause });

// Rejects unless `current` (the lock read again) is still the stale acquisition `stale`, and still stale.
async function checkStillStale(
  party: TakeoverParty,
  current: LockRecord | null,
  stale: LockRecord,
  staleAfter: number,
): Promise<void> {
  if (current === null || !sameLockRecord(current, stale)) throw tookOverFirst(party.path);
  if (staleReason(current, (await party.ageOf(current, staleAfter)).ageMs, staleAfter, party.fs.processes) === null)
    throw new GoalLoopError('RUN_LOCKED', `The run is locked by ${current.owner}, which beat again: ${party.path}.`);
}

/** One guarded replace, only while the lock and heartbeat still hold what was judged stale; false without CAS. @internal */
export async function swapTakeOver(party: TakeoverParty, stale: LockRecord, staleAfter: number): Promise<boolean> {
  const { fs, path } = party;
  if (fs.guarded === undefined) return false;
  const beatPath = heartbeatPath(path, stale.token);
  const lock = await readLockFile(fs, path);
  const beat = beatPath === null ? { text: null } : await readLockFile(fs, beatPath);
  if (!('text' in lock) || !('text' in beat)) return false;
  const current = lock.text === null ? null : parseLockRecord(lock.text);
  if (lock.text !== null && current === null) return false;
  await checkStillStale(party, current, stale, staleAfter);
  const guards: FileGuard[] = [{ path, text: lock.text }];
  if (beatPath !== null) guards.push({ path: beatPath, text: beat.text });
  try {
    await fs.guarded(guards).writeText(path, party.lockRecord(), LOCK_WRITE);
  } catch (error) {
    throw isGoalLoopError(error, 'RUN_LOCKED') ? tookOverFirst(path, error) : error;
  }
  return true;
}

/** Without CAS: exclusively claims the acquisition, rechecks it is still stale, then replaces it. @internal */
export async function claimTakeOver(party: TakeoverParty, stale: LockRecord, staleAfter: number): Promise<void> {
  const { fs, path } = party;
  const base = `${path}.takeover-${fnv1a64(`${stale.owner}\n${stale.token}\n${stale.heartbeat_at}`)}`;
  let claim = '';
  for (let attempt = 0; claim === ''; attempt++) {
    const name = `${base}-${attempt}`;
    if (await fs.createExclusive(name, party.record(), LOCK_WRITE)) claim = name;
    else {
      const other = await party.read(name);
      const live = other === null || !(await staleClaim(party, name, other, staleAfter));
      if (live || attempt + 1 >= MAX_CLAIMS)
        throw new GoalLoopError('RUN_LOCKED', `Another loop is taking over the stale lock ${path}.`);
    }
  }
  try {
    await checkStillStale(party, await party.read(path), stale, staleAfter);
    await fs.writeText(path, party.lockRecord(), LOCK_WRITE);
  } finally {
    await fs.remove(claim);
  }
}

// Whether the claim `other` at `path` is stale: the newcomer that made it died mid-takeover.
async function staleClaim(party: TakeoverParty, path: string, other: LockRecord, staleAfter: number) {
  const { ageMs } = await recordAge(party.fs, [path], other.heartbeat_at, party.now(), staleAfter);
  return staleReason(other, ageMs, staleAfter, party.fs.processes) !== null;
}
