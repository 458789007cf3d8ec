import { expect } from 'vitest';
import { GoalLoopError, type Issue } from '../../src/errors.js';

/**
 * The GoalLoopError `call` throws or rejects with; fails the test when it returns, or throws anything else.
 */
export async function refusal(call: () => unknown): Promise<GoalLoopError> {
  let error: unknown;
  try {
    await call();
  } catch (caught) {
    error = caught;
  }
  if (error instanceof GoalLoopError) return error;
  throw error ?? new Error('the options were accepted');
}

/** The GoalLoopError `call` throws synchronously; fails the test when it returns, or throws anything else. */
export function thrownRefusal(call: () => unknown): GoalLoopError {
  try {
    call();
  } catch (error) {
    if (error instanceof GoalLoopError) return error;
    throw error;
  }
  throw new Error('the options were accepted');
}

/** The issue a refusal carries for an unknown key at `path`, naming `suggestion` when given. */
function unknownKeyIssue(path: readonly (string | number)[], suggestion?: string): Issue {
  const key = String(path.at(-1));
  const hint = suggestion === undefined ? '' : `; did you mean \`${suggestion}\`?`;
  return { code: 'unrecognized_keys', path: [...path], message: `unknown option \`${key}\`${hint}` };
}

/**
 * Asserts that `call` is refused with INVALID_OPTIONS whose only issue is the unknown key at `path` (with its
 * suggestion), and that the message names the function and the suggestion too.
 */
export async function expectUnknownKey(
  call: () => unknown,
  path: readonly (string | number)[],
  suggestion?: string,
): Promise<GoalLoopError> {
  const error = await refusal(call);
  expect(error.code).toBe('INVALID_OPTIONS');
  expect(error.issues).toEqual([unknownKeyIssue(path, suggestion)]);
  if (suggestion !== undefined) expect(error.message).toContain(`did you mean \`${suggestion}\`?`);
  return error;
}

/** The JSON paths of a refusal's issues, in order. */
export async function refusedPaths(call: () => unknown): Promise<(string | number)[][]> {
  const error = await refusal(call);
  expect(error.code).toBe('INVALID_OPTIONS');
  return error.issues.map((issue) => [...issue.path]);
}
