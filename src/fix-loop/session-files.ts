import { formatIssue, GoalLoopError, type Issue } from '../errors.js';
import type { FileSystem } from '../ports/file-system.js';
import { readCommittedRecords } from '../runtime/committed-records.js';
import { createJsonStore } from '../runtime/json-store.js';
import { readLastSeq } from '../runtime/jsonl-log.js';
import { type AuditEntry, auditEntrySchema } from './contracts/audit.js';
import { type FixSessionState, fixSessionStateSchema } from './contracts/session.js';
import { escalationFilesOf } from './escalation-files.js';
import { sessionIdSchema } from './options.js';
import { containSessionPaths } from './session-paths.js';
import { type FixSessionView, sessionView } from './step-result.js';

/** Where one fix session lives: `<dir>/<sessionId>/` with its state, audit log and lock. @internal */
export interface SessionPaths {
  readonly dir: string;
  readonly state: string;
  readonly audit: string;
  readonly lock: string;
}

/** The files of one session; `INVALID_OPTIONS` naming `$.sessionId` when the id is not one safe path segment. @internal */
export function sessionPaths(dir: string, sessionId: string): SessionPaths {
  checkSessionId(sessionId);
  const base = `${dir.replace(/\/+$/, '')}/${sessionId}`;
  return { dir: base, state: `${base}/state.json`, audit: `${base}/audit.jsonl`, lock: `${base}/session.lock` };
}

/** The committed entries of a session's audit log, in order. @internal */
export function readAudit(fs: FileSystem, path: string): Promise<AuditEntry[]> {
  return readCommittedRecords(fs, path, auditEntrySchema);
}

/**
 * A session's record and the last `tail` entries of its audit log, read without its lock: the entries committed with
 * the record but not appended yet (a crash in between) count as part of the log. @internal
 */
export async function readSessionView(
  fs: FileSystem,
  paths: SessionPaths,
  sessionId: string,
  tail: number,
): Promise<FixSessionView> {
  // Held to the containment rule as an open is: a file leading out of the root is never read.
  const files = await containSessionPaths(fs, paths);
  const state = await createJsonStore(fs, files.state, fixSessionStateSchema).load();
  if (state === null) throw sessionNotFound(sessionId, paths.state);
  const logged = tail > 0 ? await readAudit(fs, files.audit) : [];
  const last = logged.at(-1)?.seq ?? -1;
  const audit = [...logged, ...state.outbox.filter((entry) => entry.seq > last)];
  return sessionView(state, tail > 0 ? audit.slice(-tail) : [], escalationFilesOf(paths, state));
}

/** True when the record's outbox holds audit lines its log does not (a crash between the two writes). @internal */
export async function undelivered(fs: FileSystem, paths: SessionPaths, state: FixSessionState): Promise<boolean> {
  const newest = state.outbox.at(-1);
  return newest !== undefined && newest.seq > (await readLastSeq(fs, paths.audit));
}

/** The error for a session id with no record. @internal */
export const sessionNotFound = (sessionId: string, path: string): GoalLoopError =>
  new GoalLoopError('SESSION_NOT_FOUND', `No fix session "${sessionId}" (looked for ${path}).`);

// A session id must be one safe path segment.
function checkSessionId(sessionId: string): void {
  const parsed = sessionIdSchema.safeParse(sessionId);
  if (parsed.success) return;
  const message = parsed.error.issues[0]?.message ?? 'invalid session id';
  const issues: Issue[] = [{ code: 'invalid_session_id', path: ['sessionId'], message }];
  throw new GoalLoopError(
    'INVALID_OPTIONS',
    `Invalid session id ${JSON.stringify(sessionId)}: ${issues.map(formatIssue).join('; ')}`,
    { issues },
  );
}
