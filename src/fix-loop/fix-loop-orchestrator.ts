import { GoalLoopError, isGoalLoopError } from '../errors.js';
import { type Clock, systemClock } from '../ports/clock.js';
import { EventFeed, warnListenerError } from '../runtime/event-feed.js';
import { DEFAULT_LOCK_TIMEOUT_MS, type UnitOfWork } from '../runtime/unit-of-work.js';
import { auditTailOf, stepCandidatesOf } from './call-options.js';
import type { AuditEntry } from './contracts/audit.js';
import type { FixCandidate } from './contracts/candidate.js';
import { FixSession } from './fix-session.js';
import { type FixLoopOrchestratorOptions, validateFixLoopOptions } from './options.js';
import { runSessionToCompletion, type SessionDriver } from './run-to-completion.js';
import { readSessionView, sessionNotFound, sessionPaths } from './session-files.js';
import { type SessionCommit, withSessionLock } from './session-lock.js';
import { FixLoopSpans } from './session-spans.js';
import { checkStart, type FixLoopStartInput, sessionExists } from './start-input.js';
import { createStepContext } from './step-context.js';
import type {
  FixLoopRunResult,
  FixLoopStarted,
  FixSessionView,
  FixStepOptions,
  FixStepResult,
  RunToCompletionOptions,
} from './step-result.js';

// How many generated ids start() tries before it gives up (each taken one moves the counter on).
const MAX_ID_TRIES = 100;

/**
 * The fix-loop orchestrator: drives build/test fix sessions on a workspace, one action per `step()` (probe, measure
 * the gap, or apply the best untried candidate and measure again) until the gap is zero or the policy escalates.
 * Sessions persist in `<dir>/<sessionId>/` and resume without applying a candidate twice.
 *
 * @example
 * ```ts
 * import { createExecaCommandRunner, createNodeFileSystem } from 'goal-loop/node';
 * import { FixLoopOrchestrator, createGitPatchApplier } from 'goal-loop/fix-loop';
 * const commands = createExecaCommandRunner();
 * const fixer = new FixLoopOrchestrator({
 *   fs: createNodeFileSystem(process.cwd()), dir: '.goal-loop/fix-sessions', commands,
 *   candidates: { propose: async ({ failureOutput }) => askAgentForPatches(failureOutput) },
 *   applier: createGitPatchApplier({ commands }),
 * });
 * const { sessionId } = await fixer.start({ goal: 'tests pass', goalType: 'tests', workspace: '.', testCommand: 'npm test', maxAttempts: 5 });
 * const result = await fixer.runToCompletion(sessionId, { maxWallMs: 600_000 });
 * ```
 * @public
 */
export class FixLoopOrchestrator {
  private readonly clock: Clock;
  private readonly lockTimeoutMs: number;
  private readonly feed: EventFeed<AuditEntry>;
  private counter = 0;

  /** Validates the options; a wrong value throws `INVALID_OPTIONS` naming each field's path. */
  constructor(private readonly options: FixLoopOrchestratorOptions) {
    validateFixLoopOptions(options);
    this.clock = options.clock ?? systemClock;
    this.lockTimeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
    this.feed = new EventFeed(options.onEvent, options.onListenerError ?? warnListenerError('FixLoopOrchestrator'));
  }

  /**
   * Creates a `pending` session. Bad input, or an existing `sessionId`, is `INVALID_OPTIONS`; without one the id comes
   * from the clock (`fix-20260101T120000000Z-1`). Rejects, writing nothing, once the signal has fired.
   */
  async start(input: FixLoopStartInput): Promise<FixLoopStarted> {
    this.throwIfAborted();
    const checked = await checkStart(this.options.fs, input);
    const given = checked.sessionId;
    for (let attempt = 0; attempt < MAX_ID_TRIES; attempt++) {
      const sessionId = given ?? this.nextId();
      const created = await this.locked(sessionId, async (commit) => {
        if ((await commit.store.load()) !== null) return false;
        await commit.commit(checked.state(sessionId, new Date(this.clock.now()).toISOString()));
        return true;
      }).catch((error: unknown) => {
        if (given === undefined && isGoalLoopError(error, 'RUN_LOCKED')) return false;
        throw error;
      });
      if (created) return { sessionId, status: 'pending', issues: checked.issues };
      if (given !== undefined) throw sessionExists(given);
    }
    throw new GoalLoopError('RUN_LOCKED', `No free session id after ${MAX_ID_TRIES} tries in ${this.options.dir}.`);
  }

  /**
   * Takes one step: `SESSION_NOT_FOUND`, `SESSION_ENDED`, `RUN_LOCKED` (stepped elsewhere). `options.candidates`
   * replace the source's for this step. On an abort it rejects; a step cut off is recorded as interrupted next call.
   */
  async step(sessionId: string, options: FixStepOptions = {}): Promise<FixStepResult> {
    this.throwIfAborted();
    const given = stepCandidatesOf(options);
    return FixLoopSpans.around(this.options, { sessionId, mode: 'step' }, (spans) =>
      this.withSession(sessionId, spans, (session) => spans.step(() => session.step()), options.signal, given),
    );
  }

  /**
   * Steps until the session converges or escalates, or `maxWallMs` passes (the running step is cut off and the session
   * escalates `wall_time`); `maxAttempts` bounds it otherwise. A session already over returns with `stepsTaken: 0`.
   * Bad options are `INVALID_OPTIONS` before anything runs.
   */
  async runToCompletion(sessionId: string, options: RunToCompletionOptions = {}): Promise<FixLoopRunResult> {
    this.throwIfAborted();
    const driver: SessionDriver = {
      fs: this.options.fs,
      dir: this.options.dir,
      clock: this.clock,
      get: (id, read) => this.get(id, read),
      withSession: (id, spans, work, stop) => this.withSession(id, spans, work, stop),
    };
    return FixLoopSpans.around(this.options, { sessionId, mode: 'run' }, (spans) =>
      runSessionToCompletion(driver, spans, sessionId, options),
    );
  }

  /**
   * Where the session stands, without its lock: a camelCase summary, the last `auditTail` audit entries (default 20,
   * `Infinity` for all) and state.json as stored. Bad options are `INVALID_OPTIONS`.
   */
  async get(sessionId: string, options: { readonly auditTail?: number } = {}): Promise<FixSessionView> {
    const paths = sessionPaths(this.options.dir, sessionId);
    return readSessionView(this.options.fs, paths, sessionId, auditTailOf(options));
  }

  // Opens the session under its lock and works with it; `stop` also aborts its step (runToCompletion's wall time).
  private async withSession<T>(
    sessionId: string,
    spans: FixLoopSpans,
    work: (session: FixSession) => Promise<T>,
    stop?: AbortSignal,
    given?: readonly FixCandidate[],
  ): Promise<T> {
    const paths = sessionPaths(this.options.dir, sessionId);
    if ((await this.options.fs.stat(paths.state)) === null) throw sessionNotFound(sessionId, paths.state);
    this.throwIfAborted();
    return this.locked(sessionId, async (commit, unit) => {
      // The signal may have fired while the lock was taken: opening the session could already write (a repair).
      this.throwIfAborted();
      const commands = spans.commands(this.options.commands);
      const { release, ...context } = createStepContext(this.options, { unit, commands, stop, given }, this.clock);
      try {
        return await work(await FixSession.open({ ...context, paths, commit, fence: unit.fence }, sessionId));
      } finally {
        release();
      }
    });
  }

  // Takes the session's lock and hands its outbox commit to `work`.
  private locked<T>(sessionId: string, work: (commit: SessionCommit, unit: UnitOfWork) => Promise<T>): Promise<T> {
    const setup = {
      fs: this.options.fs,
      paths: sessionPaths(this.options.dir, sessionId),
      clock: this.clock,
      lockTimeoutMs: this.lockTimeoutMs,
      onAppend: (entry: AuditEntry) => this.feed.publish(entry),
    };
    return withSessionLock(setup, work);
  }

  // Rejects with the abort's reason before anything is written.
  private throwIfAborted(): void {
    const signal = this.options.signal;
    if (signal?.aborted === true) throw signal.reason;
  }

  // A session id from the clock and this orchestrator's counter.
  private nextId(): string {
    this.counter += 1;
    const stamp = new Date(this.clock.now()).toISOString().replace(/[-:.]/g, '');
    return `fix-${stamp}-${this.counter}`;
  }
}
