import type { FixAttempt } from '../contracts/attempt.js';
import type { FixSessionState } from '../contracts/session.js';
import { decideNextAction } from './policy.js';

/**
 * What a party proposing fixes needs from a session whose next step is a build or test iteration: the names of the
 * failing tests (read from the failure output's `✗ name`, `✖ name` and `not ok N - name` lines, at most
 * {@link MAX_FAILING_TESTS}), the tail of the last failing command's output, and every attempt so far (what was
 * tried, how it ended, the gap before and after).
 *
 * @public
 */
export interface FixNeeded {
  readonly failingTests: readonly string[];
  readonly outputTail: string;
  readonly attempts: readonly FixAttempt[];
}

/** How many failing test names a {@link FixNeeded} lists at most. @public */
export const MAX_FAILING_TESTS = 50;

// A failing test's line in a failure output: the JUnit heading the fix loop writes, node's spec reporter, TAP.
const FAILING_LINE = /^\s*(?:✗|✖|not ok \d+ -) (.+?)\s*$/;
const MAX_NAME_CHARS = 200;

/** The failing test names a failure output shows, once each, in order. Pure. @internal */
export function failingTestNames(output: string): string[] {
  const names = new Set<string>();
  for (const line of output.split('\n')) {
    const name = FAILING_LINE.exec(line)?.[1];
    if (name !== undefined) names.add(name.length > MAX_NAME_CHARS ? `${name.slice(0, MAX_NAME_CHARS - 3)}...` : name);
    if (names.size === MAX_FAILING_TESTS) break;
  }
  return [...names];
}

/** What a session needs to be proposed a fix, or null when its next step is no iteration. Pure. @internal */
export function fixNeeded(state: FixSessionState): FixNeeded | null {
  if (state.status === 'converged' || state.status === 'escalated') return null;
  const next = decideNextAction(state).action;
  if (next !== 'build_iteration' && next !== 'test_iteration') return null;
  const outputTail = state.last_failure_output;
  return { failingTests: failingTestNames(outputTail), outputTail, attempts: state.attempts };
}
