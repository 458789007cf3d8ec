import { runPaths } from '../pipeline/run-paths.js';
import { systemClock } from '../ports/clock.js';
import { resolveTracing } from '../ports/open-telemetry.js';
import { EventFeed, warnListenerError } from '../runtime/event-feed.js';
import { JsonSchemaChecker } from '../runtime/json-schema-check.js';
import { createJsonStore } from '../runtime/json-store.js';
import { DEFAULT_LOCK_TIMEOUT_MS } from '../runtime/unit-of-work.js';
import type { LoopEvent } from './contracts/events.js';
import { loopStateSchema } from './contracts/loop-state.js';
import { errorEvaluation, evaluateGoal, type GoalEvaluation } from './core/evaluate.js';
import { clampMaxIterations } from './core/max-iterations.js';
import { GoalReader } from './goal-reader.js';
import { type LoopContext, withLockedSession } from './locked-session.js';
import { readLatestIterationStarted } from './loop-events.js';
import type { LoopResult, LoopStepResult } from './loop-result.js';
import { LoopTrace } from './loop-trace.js';
import { type GoalLoopOptions, validateLoopOptions } from './options.js';
import { containRunPaths } from './run-files.js';
import { createRunGatherer } from './run-gatherer.js';
import { checkCallOptions, ifStoppedOf, type LoopRunOptions } from './run-options.js';
import type { LoopSession } from './session.js';

/**
 * The goal loop: runs a pipeline's stages, evaluates the goal, and PASSes, RETRIES only the named stages, ASKs the
 * user or BLOCKs, under an iteration bound, a no-progress stop and a budget. Resumable; one loop per run directory.
 *
 * @example
 * ```ts
 * import { GoalLoop, exitCodeFor } from 'goal-loop';
 * import { createNodeFileSystem, createExecaCommandRunner } from 'goal-loop/node';
 *
 * const loop = new GoalLoop({
 *   fs: createNodeFileSystem(process.cwd()),
 *   runDir: '.goal-loop/runs/r-42',
 *   stages: ['02-requirements', '07-code', '08-testing', '11-feedback-loop'],
 *   runner: { run: async (stage, ctx) => ({ status: 'passed' }) },
 *   commands: createExecaCommandRunner(),
 *   budgetUsd: 5,
 * });
 * const result = await loop.run();
 * process.exitCode = exitCodeFor(result);
 * ```
 * @public
 */
export class GoalLoop {
  private readonly context: LoopContext;

  /** Validates the options; a wrong value throws `INVALID_OPTIONS` naming each field. */
  constructor(options: GoalLoopOptions) {
    validateLoopOptions(options);
    const bound = clampMaxIterations(options.maxIterations);
    const value = bound.success ? bound.data : 1;
    const checker = new JsonSchemaChecker();
    this.context = {
      options,
      paths: runPaths(options.runDir, options.feedbackStage ?? '11-feedback-loop'),
      clock: options.clock ?? systemClock,
      lockTimeoutMs: options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS,
      maxIterations:
        value === options.maxIterations || options.maxIterations === undefined
          ? { value }
          : { value, requested: options.maxIterations },
      goals: new GoalReader(options.fs, options.goal, options.stages),
      feed: new EventFeed(options.onEvent, options.onListenerError ?? warnListenerError('GoalLoop')),
      gathererFor: (paths) => createRunGatherer({ ...options, paths, checker }),
    };
  }

  /**
   * Runs (or resumes) the loop until it stops. On a run that already stopped it opens a new session, or returns
   * the recorded stop with `{ ifStopped: 'return-stop' }`. Rejects with `RUN_LOCKED` when another loop holds the
   * run, and with `INVALID_OPTIONS` naming a wrong option.
   */
  async run(options: LoopRunOptions = {}): Promise<LoopResult> {
    const result = await this.session('run', options, (session) => session.drive(false));
    if (!result.done) throw new Error('unreachable: a full run ended without a stop');
    const { done: _done, ...plain } = result;
    return plain;
  }

  /**
   * Runs (or resumes) exactly one iteration; `done: false` when the loop would go on. With
   * `{ ifStopped: 'return-stop' }` a stopped run returns its recorded stop and writes nothing (for duplicate deliveries).
   *
   * @example
   * ```ts
   * // A queue's job body: one iteration per delivery; a delivery after the run's decision gets that decision.
   * const step = await loop.step({ ifStopped: 'return-stop' });
   * if (step.done) return { stoppedOn: step.stoppedOn, iteration: step.iteration };
   * ```
   */
  step(options: LoopRunOptions = {}): Promise<LoopStepResult> {
    return this.session('step', options, (session) => session.drive(true));
  }

  /**
   * The loop's events as `onEvent` gets them, for `for await`, from this call on; none is dropped. Ends when `signal`
   * aborts or on `return()`, not with a run. A misspelt option is `INVALID_OPTIONS`.
   *
   * @example
   * ```ts
   * const ended = new AbortController();
   * const done = loop.run().finally(() => ended.abort());
   * for await (const event of loop.events({ signal: ended.signal })) console.log(event.type, event.iteration);
   * ```
   */
  events(options: { readonly signal?: AbortSignal } = {}): AsyncIterableIterator<LoopEvent> {
    checkCallOptions('events', options);
    return this.context.feed.subscribe(options.signal);
  }

  /** Dry run: gathers and evaluates, writing nothing; command criteria run unless `skipCommands` (then PENDING). */
  async evaluate(options: { readonly skipCommands?: boolean } = {}): Promise<GoalEvaluation> {
    checkCallOptions('evaluate', options);
    const { fs } = this.context.options;
    const paths = await containRunPaths(fs, this.context.paths);
    const [goal, state, latest] = await Promise.all([
      this.context.goals.load(paths.goal),
      createJsonStore(fs, paths.state, loopStateSchema).load(),
      readLatestIterationStarted(fs, paths.events),
    ]);
    const iteration = latest ?? (state !== null && state.iteration > 0 ? state.iteration : null);
    if (!goal.ok) return errorEvaluation(goal.goalId, goal.issues, iteration);
    const skipCommands = options.skipCommands ?? false;
    const facts = await this.context.gathererFor(paths).gather(goal.goal, state, { iteration, skipCommands });
    return evaluateGoal(facts, { askJudges: this.context.options.askJudges ?? 'last' });
  }

  // One session under its run span.
  private async session(
    mode: 'run' | 'step',
    options: LoopRunOptions,
    work: (session: LoopSession) => Promise<LoopStepResult>,
  ): Promise<LoopStepResult> {
    const ifStopped = ifStoppedOf(mode, options);
    const tracing = await resolveTracing(this.context.options);
    const attributes = { runDir: this.context.paths.runDir, mode, maxIterations: this.context.maxIterations.value };
    return LoopTrace.around(tracing, attributes, (trace) => withLockedSession(this.context, trace, ifStopped, work));
  }
}
