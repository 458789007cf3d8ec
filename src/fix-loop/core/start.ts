import { issuesFromZod, type ParseResult } from '../../errors.js';
import type { FixSessionState } from '../contracts/session.js';
import { MAX_FAILURE_OUTPUT_CHARS } from '../contracts/session.js';
import { type FixSessionStart, fixSessionStartSchema, MAX_ATTEMPTS_CAP } from '../contracts/start.js';

/**
 * Checks a fix session's start (`start()`'s input): `goal`, `goalType` and
 * `workspace` non-empty strings, the commands non-empty strings when given
 * and at least one of them given (else an issue at `$.testCommand`),
 * `maxAttempts` an integer of at least 1 (default 5), no unknown field.
 * Every problem is an issue naming its JSON path (`$.workspace`). A
 * `maxAttempts` above {@link MAX_ATTEMPTS_CAP} is clamped to it, with a
 * `clamped` issue saying so on a successful result. Never throws. Pure.
 *
 * @example
 * ```ts
 * const start = { goal: 'tests pass', goalType: 'tests', workspace: '.', testCommand: 'npm test' };
 * parseFixSessionStart({ ...start, maxAttempts: 80 });
 * // { success: true, data: { …, maxAttempts: 50 }, issues: [{ code: 'clamped', path: ['maxAttempts'], … }] }
 * ```
 * @public
 */
export function parseFixSessionStart(value: unknown): ParseResult<FixSessionStart> {
  let result: ReturnType<typeof fixSessionStartSchema.safeParse>;
  try {
    result = fixSessionStartSchema.safeParse(value);
  } catch (error) {
    const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return { success: false, issues: [{ code: 'unreadable', path: [], message: `The input cannot be read (${why})` }] };
  }
  if (!result.success) return { success: false, issues: issuesFromZod(result.error) };
  const start = result.data;
  if (start.maxAttempts <= MAX_ATTEMPTS_CAP) return { success: true, data: start, issues: [] };
  return {
    success: true,
    data: { ...start, maxAttempts: MAX_ATTEMPTS_CAP },
    issues: [
      {
        code: 'clamped',
        path: ['maxAttempts'],
        message: `${start.maxAttempts} attempts exceed the cap; ${MAX_ATTEMPTS_CAP} apply`,
      },
    ],
  };
}

/**
 * The record of a session that has not been stepped (state.json, snake_case
 * as stored): the start's fields (`goalType` as `goal_type`, …), `pending`,
 * the environment not verified, no gap, no attempt. `maxAttempts` is clamped
 * to {@link MAX_ATTEMPTS_CAP} here too. `ts` is an ISO time from the host's
 * clock. Pure.
 *
 * @public
 */
export function createFixSessionState(input: {
  readonly sessionId: string;
  readonly start: FixSessionStart;
  readonly ts: string;
}): FixSessionState {
  const { start } = input;
  return {
    schema_version: 1,
    session_id: input.sessionId,
    goal: start.goal,
    goal_type: start.goalType,
    workspace: start.workspace,
    ...(start.buildCommand === undefined ? {} : { build_command: start.buildCommand }),
    ...(start.testCommand === undefined ? {} : { test_command: start.testCommand }),
    ...(start.testReport === undefined ? {} : { test_report: { ...start.testReport } }),
    max_attempts: Math.min(Math.max(1, start.maxAttempts), MAX_ATTEMPTS_CAP),
    status: 'pending',
    environment_verified: false,
    gap: null,
    last_failure_output: '',
    attempts: [],
    tried: [],
    manual_candidates: [],
    step_count: 0,
    step_in_progress: null,
    escalation: null,
    outbox: [],
    created_at: input.ts,
    updated_at: input.ts,
  };
}

// Marks where a kept tail of output was cut.
const CUT = '…[earlier output cut]\n';

/**
 * The tail of a command's output as a session keeps it: at most
 * {@link MAX_FAILURE_OUTPUT_CHARS} characters, the end kept (where test
 * runners and compilers print their summary), with a marker where it was cut.
 * Pure.
 *
 * @public
 */
export function failureOutputTail(output: string): string {
  if (output.length <= MAX_FAILURE_OUTPUT_CHARS) return output;
  let tail = output.slice(output.length - (MAX_FAILURE_OUTPUT_CHARS - CUT.length));
  // Never start on the second half of a surrogate pair.
  if (/^[\uDC00-\uDFFF]/.test(tail)) tail = tail.slice(1);
  return CUT + tail;
}
