import type { Clock } from '../ports/clock.js';
import type { FileSystem } from '../ports/file-system.js';
import { createJsonStore } from '../runtime/json-store.js';
import { JsonlLog } from '../runtime/jsonl-log.js';
import { lockOwner, withAcquiredLock } from '../runtime/lock-scope.js';
import { OutboxCommit } from '../runtime/outbox.js';
import { RunLock } from '../runtime/run-lock.js';
import type { AuditEntry } from './contracts/audit.js';
import { type FixSessionState, fixSessionStateSchema } from './contracts/session.js';
import type { SessionPaths } from './session-files.js';
import { containSessionPaths } from './session-paths.js';

// How old a temp file of an atomic write must be before a step removes it.
const STALE_TEMP_MS = 60_000;

/** What taking a session's lock needs. @internal */
export interface LockSetup {
  readonly fs: FileSystem;
  readonly paths: SessionPaths;
  readonly clock: Clock;
  readonly lockTimeoutMs: number;
  /** Told of every audit entry appended. */
  readonly onAppend: (entry: AuditEntry) => void;
}

/** The session's record and audit log, committed together, and the lock that fences every write. @internal */
export type SessionCommit = OutboxCommit<FixSessionState, AuditEntry>;

/**
 * Holds the session's files to the containment rule first (`IO_ERROR`
 * naming a file that leads out of the project root, before anything is
 * written), takes the session's lock (`RUN_LOCKED` when another caller holds it),
 * sweeps temp files an earlier crash left, hands `work` the session's outbox
 * commit (fenced by the lock), and releases the lock — also when `work`
 * fails, whose error then wins over a failed release.
 *
 * @internal
 */
export async function withSessionLock<T>(
  setup: LockSetup,
  work: (commit: SessionCommit, lock: RunLock) => Promise<T>,
): Promise<T> {
  const { fs } = setup;
  const paths = await containSessionPaths(fs, setup.paths);
  const owner = lockOwner('goal-loop-fix-loop');
  const lock = new RunLock(fs, paths.lock, setup.clock, owner, setup.lockTimeoutMs);
  return withAcquiredLock(lock, async () => {
    const writer = lock.writer;
    await fs.removeStaleTempFiles?.(paths.dir, { olderThanMs: STALE_TEMP_MS });
    const log = new JsonlLog<AuditEntry>(writer, paths.audit, setup.onAppend);
    const store = createJsonStore(writer, paths.state, fixSessionStateSchema);
    return await work(new OutboxCommit<FixSessionState, AuditEntry>(store, log, () => lock.fenceWrite()), lock);
  });
}
