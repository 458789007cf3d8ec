import type { z } from 'zod';
import type { Clock } from '../ports/clock.js';
import type { FileSystem } from '../ports/file-system.js';
import { withHeartbeat } from './heartbeat.js';
import { createJsonStore } from './json-store.js';
import { JsonlLog, type Sequenced } from './jsonl-log.js';
import { lockOwner, withAcquiredLock } from './lock-scope.js';
import { OutboxCommit, type WithOutbox } from './outbox.js';
import { type LockTakeover, RunLock } from './run-lock.js';

/** The age past which a lock's heartbeat is stale, for every capability: 10 minutes. @internal */
export const DEFAULT_LOCK_TIMEOUT_MS = 600_000;

// A temp file of an atomic write this old is a crash's leftover, never a live writer's.
const STALE_TEMP_MS = 60_000;

/** What opening a unit of work takes: the lock's file, who holds it, and for how long a silent holder counts. @internal */
export interface UnitSpec {
  readonly fs: FileSystem;
  readonly lockPath: string;
  readonly clock: Clock;
  /** Starts the lock owner's id (`goal-loop`, `goal-loop-critics`, …). */
  readonly capability: string;
  readonly lockTimeoutMs: number;
}

/** A unit of work under a held lock: everything it writes goes through `fs`, fenced by the lock. @internal */
export interface UnitOfWork {
  readonly fs: FileSystem;
  readonly lock: RunLock;
  /** The stale lock this unit took over, if it did. */
  readonly takeover: LockTakeover | null;
  /** Throws `RUN_LOCKED` once the lock is no longer this unit's. */
  readonly fence: () => Promise<void>;
  /** Keeps the lock fresh while `work` runs; `lost` fires when the lock is lost. */
  readonly heartbeat: <T>(work: (lost: AbortSignal) => Promise<T>) => Promise<T>;
  /** Removes temp files a crash left in each folder (one STALE_TEMP_MS for every capability). */
  readonly sweep: (...folders: readonly string[]) => Promise<void>;
  /** The record-then-log commit of a state file and its JSONL log, fenced by the lock. */
  readonly commit: <S extends WithOutbox<E>, E extends Sequenced>(files: CommitFiles<S, E>) => OutboxCommit<S, E>;
}

/** A state file with its schema and the log its outbox goes to. @internal */
interface CommitFiles<S, E extends Sequenced> {
  readonly state: string;
  readonly schema: z.ZodType<S>;
  readonly log: string;
  readonly onAppend?: (record: E) => void;
}

/**
 * Takes the lock (with fencing and stale takeover), runs `work` under it, and releases the lock whatever happens; the
 * heartbeat beats every third of the lock's timeout. @internal
 */
export function withUnitOfWork<T>(spec: UnitSpec, work: (unit: UnitOfWork) => Promise<T>): Promise<T> {
  const lock = new RunLock(spec.fs, spec.lockPath, spec.clock, lockOwner(spec.capability), spec.lockTimeoutMs);
  const every = Math.max(1, Math.floor(spec.lockTimeoutMs / 3));
  return withAcquiredLock(lock, (takeover) => {
    const fs = lock.writer;
    return work({
      fs,
      lock,
      takeover,
      fence: () => lock.fence(),
      heartbeat: (task) => withHeartbeat(lock, spec.clock, every, task),
      sweep: async (...folders) => {
        for (const folder of folders) await fs.removeStaleTempFiles?.(folder, { olderThanMs: STALE_TEMP_MS });
      },
      commit: (files) => {
        const store = createJsonStore(fs, files.state, files.schema);
        const log = new JsonlLog(fs, files.log, files.onAppend);
        return new OutboxCommit(store, log, () => lock.fenceWrite());
      },
    });
  });
}
