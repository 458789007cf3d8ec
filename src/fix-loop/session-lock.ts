import type { Clock } from '../ports/clock.js';
import type { FileSystem } from '../ports/file-system.js';
import type { OutboxCommit } from '../runtime/outbox.js';
import { type UnitOfWork, withUnitOfWork } from '../runtime/unit-of-work.js';
import type { AuditEntry } from './contracts/audit.js';
import { type FixSessionState, fixSessionStateSchema } from './contracts/session.js';
import type { SessionPaths } from './session-files.js';
import { containSessionPaths } from './session-paths.js';

/** What taking a session's lock needs. @internal */
export interface LockSetup {
  readonly fs: FileSystem;
  readonly paths: SessionPaths;
  readonly clock: Clock;
  readonly lockTimeoutMs: number;
  readonly onAppend: (entry: AuditEntry) => void;
}

/** The session's record and audit log, committed together. @internal */
export type SessionCommit = OutboxCommit<FixSessionState, AuditEntry>;

/** Runs `work` on the session under its lock; its files are held to the containment rule before anything is written. @internal */
export async function withSessionLock<T>(
  setup: LockSetup,
  work: (commit: SessionCommit, unit: UnitOfWork) => Promise<T>,
): Promise<T> {
  const paths = await containSessionPaths(setup.fs, setup.paths);
  const spec = { fs: setup.fs, lockPath: paths.lock, clock: setup.clock, lockTimeoutMs: setup.lockTimeoutMs };
  return withUnitOfWork({ ...spec, capability: 'goal-loop-fix-loop' }, async (unit) => {
    await unit.sweep(paths.dir);
    const files = { state: paths.state, schema: fixSessionStateSchema, log: paths.audit, onAppend: setup.onAppend };
    return work(unit.commit<FixSessionState, AuditEntry>(files), unit);
  });
}
