import { formatIssue, GoalLoopError, type Issue } from '../errors.js';
import { isAbsolutePath, isInside, joinPath } from '../kit/paths.js';
import { unknownKeys } from '../kit/unknown-keys.js';
import type { FileSystem } from '../ports/file-system.js';
import { resolveContainedPath } from '../runtime/containment.js';
import type { FixSessionState } from './contracts/session.js';
import { type FixSessionStartInput, fixSessionStartSchema } from './contracts/start.js';
import { createFixSessionState, parseFixSessionStart } from './core/start.js';
import { sessionIdSchema } from './options.js';

/** What `start()` takes: the session start and, optionally, its `sessionId` (one path segment). @public */
export type FixLoopStartInput = FixSessionStartInput & { readonly sessionId?: string };

/** A start input that passed its checks: the id asked for, notes, and how to make the session's record. @internal */
export interface CheckedStart {
  readonly sessionId: string | undefined;
  readonly issues: readonly Issue[];
  readonly state: (sessionId: string, ts: string) => FixSessionState;
}

/**
 * Checks a start input: its shape (every issue with its JSON path), the
 * session id, a workspace inside the FileSystem root (a missing one is left
 * to the probe, which reports it) and a test report path inside the
 * workspace. Refusals are `INVALID_OPTIONS` listing every issue.
 *
 * @internal
 */
export async function checkStart(fs: FileSystem, input: FixLoopStartInput): Promise<CheckedStart> {
  const { sessionId, ...rest } = isRecord(input) ? input : { sessionId: undefined };
  const parsed = parseFixSessionStart(isRecord(input) ? rest : input);
  const issues: Issue[] = parsed.success ? [] : withKeyHints(parsed.issues, rest);
  if (sessionId !== undefined && !sessionIdSchema.safeParse(sessionId).success)
    issues.push({
      code: 'invalid_session_id',
      path: ['sessionId'],
      message: 'a session id is one path segment of letters, digits, ".", "_" and "-" (at most 128)',
    });
  if (parsed.success) {
    const { workspace, testReport: report } = parsed.data;
    const fact = await resolveContainedPath(fs, workspace);
    if (fact.state === 'refused') issues.push({ code: 'outside_root', path: ['workspace'], message: fact.detail });
    if (report !== undefined && (isAbsolutePath(report.path) || !isInside(joinPath('w', report.path), 'w')))
      issues.push({
        code: 'outside_workspace',
        path: ['testReport', 'path'],
        message: `"${report.path}" must be a relative path inside the workspace`,
      });
  }
  if (!parsed.success || issues.length > 0) {
    throw new GoalLoopError('INVALID_OPTIONS', `Invalid fix session start: ${issues.map(formatIssue).join('; ')}`, {
      issues,
    });
  }
  const start = parsed.data;
  return {
    sessionId: typeof sessionId === 'string' ? sessionId : undefined,
    issues: parsed.issues,
    state: (id, ts) => createFixSessionState({ sessionId: id, start, ts }),
  };
}

// The start's fields, and its unknown keys one issue each, naming the field meant (`goal_type`: `goalType`?).
const FIELDS = [...Object.keys(fixSessionStartSchema.shape), 'sessionId'];
function withKeyHints(issues: readonly Issue[], input: Record<string, unknown>): Issue[] {
  const unknown = unknownKeys(input, FIELDS);
  if (unknown.length === 0) return [...issues];
  const hinted = unknown.map(({ key, suggestion }) => ({
    code: 'unrecognized_keys',
    path: [key],
    message: `unknown field \`${key}\`${suggestion === undefined ? '' : `; did you mean \`${suggestion}\`?`}`,
  }));
  return [...issues.filter((issue) => !(issue.code === 'unrecognized_keys' && issue.path.length === 0)), ...hinted];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The error for a `sessionId` that is taken. @internal */
export const sessionExists = (sessionId: string): GoalLoopError =>
  new GoalLoopError('INVALID_OPTIONS', `A fix session "${sessionId}" already exists; choose another id.`, {
    issues: [{ code: 'session_exists', path: ['sessionId'], message: `session "${sessionId}" already exists` }],
  });
