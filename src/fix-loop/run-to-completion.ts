import { GoalLoopError } from '../errors.js';
import type { Clock } from '../ports/clock.js';
import type { FileSystem } from '../ports/file-system.js';
import { escalationFilesMissing } from './escalation-files.js';
import type { FixSession } from './fix-session.js';
import { type SessionPaths, sessionPaths, undelivered } from './session-files.js';
import type { FixLoopSpans } from './session-spans.js';
import {
  type FixLoopRunResult,
  type FixSessionView,
  type FixStepResult,
  isTerminal,
  type RunToCompletionOptions,
  runResult,
} from './step-result.js';

/** What `runToCompletion` works with: the orchestrator's session files, clock, reader and locked opener. @internal */
export interface SessionDriver {
  readonly fs: FileSystem;
  readonly dir: string;
  readonly clock: Clock;
  get(sessionId: string, options: { readonly auditTail: number }): Promise<FixSessionView>;
  withSession<T>(sessionId: string, spans: FixLoopSpans, work: (session: FixSession) => Promise<T>): Promise<T>;
}

/**
 * Steps the session to its end under the call's spans: until it converges or
 * escalates, or until `maxWallMs` have passed (checked between steps; the
 * session then escalates `wall_time`). A session already over is returned as
 * it is, with `stepsTaken: 0`, after delivering what a crash left undone.
 *
 * @internal
 */
export async function runSessionToCompletion(
  driver: SessionDriver,
  spans: FixLoopSpans,
  sessionId: string,
  options: RunToCompletionOptions,
): Promise<FixLoopRunResult> {
  const maxWallMs = options.maxWallMs ?? Number.POSITIVE_INFINITY;
  if (!(maxWallMs >= 0))
    throw new GoalLoopError('INVALID_OPTIONS', `maxWallMs must be a non-negative number (got ${String(maxWallMs)})`);
  const { clock } = driver;
  const started = clock.now();
  let steps = 0;
  let last: FixStepResult | null = null;
  const before = await driver.get(sessionId, { auditTail: 0 });
  let status = before.status;
  // A session that ended just before a crash may hold its last audit line undelivered, or lack its report files:
  // opening it delivers the line and writes the files.
  if (isTerminal(status) && (await unfinished(driver.fs, sessionPaths(driver.dir, sessionId), before)))
    await driver.withSession(sessionId, spans, async () => undefined);
  while (!isTerminal(status)) {
    const spent = clock.now() - started;
    last =
      spent >= maxWallMs
        ? await driver.withSession(sessionId, spans, (session) =>
            spans.step(() =>
              session.escalate(
                'wall_time',
                `The wall-time budget of ${maxWallMs} ms was spent after ${steps} step(s) (${spent} ms).`,
              ),
            ),
          )
        : await driver.withSession(sessionId, spans, (session) => spans.step(() => session.step()));
    steps += 1;
    status = last.status;
  }
  return runResult(await driver.get(sessionId, { auditTail: Number.POSITIVE_INFINITY }), steps, last);
}

// True when an ended session's last commit was cut off before its audit line or its report files were written.
async function unfinished(fs: FileSystem, paths: SessionPaths, view: FixSessionView): Promise<boolean> {
  return (await undelivered(fs, paths, view.state)) || (await escalationFilesMissing(fs, paths, view));
}
