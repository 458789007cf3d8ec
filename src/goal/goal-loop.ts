import { EventFeed, warnListenerError } from '../persist/event-feed.js';
import { withHeartbeat } from '../persist/heartbeat.js';
import { JsonSchemaChecker } from '../persist/json-schema-check.js';
import { createJsonStore } from '../persist/json-store.js';
import { JsonlLog } from '../persist/jsonl-log.js';
import { OutboxCommit } from '../persist/outbox.js';
import { RunLock } from '../persist/run-lock.js';
import { type RunPaths, runPaths } from '../pipeline/run-paths.js';
import { type Clock, systemClock } from '../ports/clock.js';
import { resolveTracer } from '../ports/open-telemetry.js';
import type { LoopEvent } from './contracts/events.js';
import { type LoopState, loopStateSchema } from './contracts/loop-state.js';
import { errorEvaluation, evaluateGoal, type GoalEvaluation } from './core/evaluate.js';
import { clampMaxIterations } from './core/max-iterations.js';
import { GoalReader } from './goal-reader.js';
import { containLateCostFolder } from './late-cost-files.js';
import { readLatestIterationStarted } from './loop-events.js';
import type { LoopResult, LoopStepResult } from './loop-result.js';
import { LoopTrace } from './loop-trace.js';
import { DEFAULT_LOCK_TIMEOUT_MS, type GoalLoopOptions, stageTimeout, validateLoopOptions } from './options.js';
import { containRunPaths } from './run-files.js';
import { createRunGatherer, type RunGatherer } from './run-gatherer.js';
import { checkCallOptions, type IfStopped, ifStoppedOf, type LoopRunOptions } from './run-options.js';
import { LoopSession } from './session.js';

// How old a temp file of an atomic write must be before a session start removes it.
const STALE_TEMP_MS = 60_000;

// The signal stage runners get when the host passed none.
const NEVER_ABORTED = new AbortController().signal;

/**
 * The goal loop: runs a pipeline's stages, evaluates the goal, and
 * PASSes, RETRIES only the named stages, ASKs the user or BLOCKs, under an
 * iteration bound with a hard cap of 20, a no-progress stop and a budget.
 * Crash-safe and resumable; one loop per run directory.
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
  private readonly options: GoalLoopOptions;
  private readonly paths: RunPaths;
  private readonly clock: Clock;
  private readonly lockTimeoutMs: number;
  private readonly maxIterations: { readonly value: number; readonly requested?: number };
  private readonly goals: GoalReader;
  private readonly checker = new JsonSchemaChecker();
  private readonly feed: EventFeed<LoopEvent>;

  /** Validates the options; a wrong value throws `INVALID_OPTIONS` naming each field. */
  constructor(options: GoalLoopOptions) {
    validateLoopOptions(options);
    this.options = options;
    this.paths = runPaths(options.runDir, options.feedbackStage ?? '11-feedback-loop');
    this.clock = options.clock ?? systemClock;
    this.lockTimeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
    const bound = clampMaxIterations(options.maxIterations);
    const value = bound.success ? bound.data : 1;
    this.maxIterations =
      value === options.maxIterations || options.maxIterations === undefined
        ? { value }
        : { value, requested: options.maxIterations };
    this.goals = new GoalReader(options.fs, options.goal, options.stages);
    this.feed = new EventFeed(options.onEvent, options.onListenerError ?? warnListenerError('GoalLoop'));
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
   * Runs (or resumes) exactly one iteration; `done: false` when the loop would go on. On a run that already
   * stopped it opens a new session, or, with `{ ifStopped: 'return-stop' }`, returns the recorded stop and
   * writes nothing (checked under the lock: what a queue worker given a duplicate delivery needs).
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
   * The loop's events as `onEvent` gets them, for `for await`: each one appended from this call on, by any `run()` or
   * `step()` of this loop. Ends when `signal` aborts (after the events it holds) or on `return()` (a `break`), not
   * with a run (the loop may run again). Events queue while the consumer is slower and none is dropped; a session
   * appends a bounded number (a few per stage and iteration, under the iteration cap). A misspelt option (`sigal`),
   * which would leave the iteration without an end, is `INVALID_OPTIONS`.
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
    return this.feed.subscribe(options.signal);
  }

  /**
   * Dry run: gathers and evaluates as the loop would now, and writes nothing
   * (no events, no state, no lock). Command criteria still run unless
   * `skipCommands` is set (then they are PENDING); a misspelt option is `INVALID_OPTIONS`.
   */
  async evaluate(options: { readonly skipCommands?: boolean } = {}): Promise<GoalEvaluation> {
    checkCallOptions('evaluate', options);
    const { fs } = this.options;
    const paths = await containRunPaths(fs, this.paths);
    const [goal, state, latest] = await Promise.all([
      this.goals.load(paths.goal),
      createJsonStore(fs, paths.state, loopStateSchema).load(),
      readLatestIterationStarted(fs, paths.events),
    ]);
    const iteration = latest ?? (state !== null && state.iteration > 0 ? state.iteration : null);
    if (!goal.ok) return errorEvaluation(goal.goalId, goal.issues, iteration);
    const skipCommands = options.skipCommands ?? false;
    return evaluateGoal(await this.gathererFor(paths).gather(goal.goal, state, { iteration, skipCommands }));
  }

  // Gathers the evaluation's facts with the run's contained paths.
  private gathererFor(paths: RunPaths): RunGatherer {
    return createRunGatherer({ ...this.options, paths, checker: this.checker });
  }

  // One session under its run span.
  private async session(
    mode: 'run' | 'step',
    options: LoopRunOptions,
    work: (session: LoopSession) => Promise<LoopStepResult>,
  ): Promise<LoopStepResult> {
    const ifStopped = ifStoppedOf(mode, options);
    const tracer = await resolveTracer(this.options.tracer);
    const attributes = { runDir: this.paths.runDir, mode, maxIterations: this.maxIterations.value };
    return LoopTrace.around(tracer, attributes, (trace) => this.locked(trace, ifStopped, work));
  }

  // Takes the run lock, opens the session (resume, new, or a recorded stop), works with it, and releases the lock.
  private async locked(
    trace: LoopTrace,
    ifStopped: IfStopped,
    work: (session: LoopSession) => Promise<LoopStepResult>,
  ): Promise<LoopStepResult> {
    const { fs } = this.options;
    const paths = await containRunPaths(fs, this.paths);
    const owner = `goal-loop:${globalThis.process?.pid ?? 'browser'}:${globalThis.crypto.randomUUID()}`;
    const lock = new RunLock(fs, paths.lock, this.clock, owner, this.lockTimeoutMs);
    const takeover = await lock.acquire();
    let failed = false;
    try {
      // Temp files of the loop's own atomic writes a crash cut off, beside its files (older than a minute, so no live
      // writer's); not recursive, so a long run's iterations/ folders cost nothing here.
      await fs.removeStaleTempFiles?.(paths.runDir, { olderThanMs: STALE_TEMP_MS });
      const lateCostFolder = await containLateCostFolder(fs, paths.runDir);
      await fs.removeStaleTempFiles?.(lateCostFolder, { olderThanMs: STALE_TEMP_MS });
      const log = new JsonlLog<LoopEvent>(fs, paths.events, (event) => this.feed.publish(event));
      const store = createJsonStore<typeof loopStateSchema>(fs, paths.state, loopStateSchema);
      const gatherer = this.gathererFor(paths);
      const heartbeatEvery = Math.max(1, Math.floor(this.lockTimeoutMs / 3));
      const opened = await LoopSession.open(
        {
          fs,
          paths,
          lateCostFolder,
          runner: this.options.runner,
          clock: this.clock,
          signal: this.options.signal ?? NEVER_ABORTED,
          commit: new OutboxCommit<LoopState, LoopEvent>(store, log, () => lock.fence()),
          stages: this.options.stages,
          budgetUsd: this.options.budgetUsd,
          acceptGoalChange: this.options.acceptGoalChange ?? false,
          maxIterations: this.maxIterations,
          loadGoal: () => this.goals.load(paths.goal),
          gather: (goal, state) =>
            gatherer.gather(goal.goal, state, { iteration: state.iteration, skipCommands: false }),
          stageTimeoutMs: (stage) => stageTimeout(this.options.stageTimeoutMs, stage),
          fence: () => lock.fence(),
          heartbeat: (task) => withHeartbeat(lock, this.clock, heartbeatEvery, task),
          trace,
        },
        takeover,
        ifStopped,
      );
      return opened instanceof LoopSession ? await work(opened) : opened;
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      await lock.release().catch((error: unknown) => {
        if (!failed) throw error;
      });
    }
  }
}
