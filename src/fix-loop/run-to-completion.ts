import { isGoalLoopError } from '../errors.js';
import type { Clock } from '../ports/clock.js';
import type { FileSystem } from '../ports/file-system.js';
import { wallTimeOf } from './call-options.js';
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
  /** Opens the session under its lock; `stop` also aborts the step's host calls and commands. */
  withSession<T>(
    sessionId: string,
    spans: FixLoopSpans,
    work: (session: FixSession) => Promise<T>,
    stop?: AbortSignal,
  ): Promise<T>;
}

/**
 * Steps the session to its end under the call's spans: until it converges or escalates, or until `maxWallMs` have
 * passed. @internal
 */
export async function runSessionToCompletion(
  driver: SessionDriver,
  spans: FixLoopSpans,
  sessionId: string,
  options: RunToCompletionOptions,
): Promise<FixLoopRunResult> {
  const maxWallMs = wallTimeOf(options);
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
  const wall = wallTimer(clock, maxWallMs);
  const cancel = options.signal;
  const stop = cancel === undefined ? wall.signal : AbortSignal.any([wall.signal, cancel]);
  try {
    while (!isTerminal(status)) {
      let cut = false;
      if (cancelled(cancel)) throw cancel?.reason;
      if (!wall.signal.aborted && clock.now() - started < maxWallMs) {
        try {
          last = await driver.withSession(sessionId, spans, (s) => spans.step(() => s.step()), stop);
          steps += 1;
          status = last.status;
          continue;
        } catch (error) {
          // Only the wall time's abort is this loop's to handle; the lock's loss, a failed write, the host's abort
          // (the escalation below rejects with its reason) propagate.
          if (cancelled(cancel)) throw cancel?.reason;
          if (!wall.signal.aborted || isGoalLoopError(error)) throw error;
          cut = true;
          steps += 1;
        }
      }
      const spent = clock.now() - started;
      const when = cut ? `during step ${steps}, which was cut off` : `after ${steps} step(s)`;
      const rationale = `The wall-time budget of ${maxWallMs} ms was spent ${when} (${spent} ms).`;
      last = await driver.withSession(sessionId, spans, (s) => spans.step(() => s.escalate('wall_time', rationale)));
      steps += 1;
      status = last.status;
    }
  } finally {
    wall.stop();
  }
  return runResult(await driver.get(sessionId, { auditTail: Number.POSITIVE_INFINITY }), steps, last);
}

// Whether the caller cancelled the run (a function, so each check reads the signal anew).
const cancelled = (signal: AbortSignal | undefined): boolean => signal?.aborted === true;

// A signal that aborts once `maxWallMs` have passed on the clock (never for an unbounded run), and how to stop it.
function wallTimer(clock: Clock, maxWallMs: number): { readonly signal: AbortSignal; stop(): void } {
  const wall = new AbortController();
  const done = new AbortController();
  if (Number.isFinite(maxWallMs))
    clock.sleep(maxWallMs, done.signal).then(
      () => wall.abort(new Error(`the wall-time budget of ${maxWallMs} ms of runToCompletion was spent`)),
      () => undefined,
    );
  return { signal: wall.signal, stop: () => done.abort() };
}

// True when an ended session's last commit was cut off before its audit line or its report files were written.
async function unfinished(fs: FileSystem, paths: SessionPaths, view: FixSessionView): Promise<boolean> {
  return (await undelivered(fs, paths, view.state)) || (await escalationFilesMissing(fs, paths, view));
}
