import { issuesFromZod, type ParseResult } from '../../errors.js';
import type { FixSessionState } from '../contracts/session.js';
import { MAX_FAILURE_OUTPUT_CHARS } from '../contracts/session.js';
import { type FixSessionStart, fixSessionStartSchema, MAX_ATTEMPTS_CAP } from '../contracts/start.js';

/**
 * Checks `start()`'s input, every problem an issue at its JSON path; a `maxAttempts` over {@link MAX_ATTEMPTS_CAP}
 * is clamped with a `clamped` issue. Never throws. Pure.
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
 * The state.json record of a session not yet stepped: `pending`, unverified, no gap or attempt. Pure.
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
 * A command output's tail as a session keeps it: the last {@link MAX_FAILURE_OUTPUT_CHARS} characters, marked where cut.
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
