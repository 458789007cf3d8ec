import { EventLog, readLatestIterationStarted } from '../persist/event-log.js';
import { withHeartbeat } from '../persist/heartbeat.js';
import { JsonSchemaChecker } from '../persist/json-schema-check.js';
import { RunLock } from '../persist/run-lock.js';
import { type RunPaths, runPaths } from '../pipeline/run-paths.js';
import type { Clock } from '../ports/clock.js';
import { systemClock } from '../ports/clock.js';
import type { Goal } from './contracts/goal.js';
import type { LoopState } from './contracts/loop-state.js';
import { errorEvaluation, evaluateGoal, type GoalEvaluation } from './core/evaluate.js';
import type { DocumentFact } from './core/facts.js';
import { gatherFacts } from './gather.js';
import { type LoadedGoal, loadGoal, loadGoalText } from './goal-source.js';
import type { LoopContext } from './loop-context.js';
import { LoopDriver } from './loop-driver.js';
import type { LoopResult, LoopStepResult } from './loop-result.js';
import {
  DEFAULT_LOCK_TIMEOUT_MS,
  effectiveMaxIterations,
  type GoalLoopOptions,
  validateLoopOptions,
} from './options.js';
import { type PreparedSession, prepareSession } from './session-start.js';
import { loadLoopState, saveLoopState } from './state-store.js';

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
  private readonly checker = new JsonSchemaChecker();
  private readonly feedbackStage: string;
  private readonly lockTimeoutMs: number;
  private optionGoal: LoadedGoal | undefined;
  private fileGoal: { readonly text: string | null; readonly loaded: LoadedGoal } | undefined;

  /** Validates the options; a wrong value throws `INVALID_OPTIONS` naming each field. */
  constructor(options: GoalLoopOptions) {
    validateLoopOptions(options);
    this.options = options;
    this.feedbackStage = options.feedbackStage ?? '11-feedback-loop';
    this.paths = runPaths(options.runDir, this.feedbackStage);
    this.clock = options.clock ?? systemClock;
    this.lockTimeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  }

  /** Runs (or resumes) the loop until it stops. Rejects with `RUN_LOCKED` when another loop holds the run. */
  run(): Promise<LoopResult> {
    return this.withLock(async (driver) => {
      const result = driver instanceof LoopDriver ? await driver.drive(false) : driver;
      if (!result.done) throw new Error('unreachable: a full run ended without a stop');
      const { done: _done, ...plain } = result;
      return plain;
    });
  }

  /** Runs (or resumes) exactly one iteration; `done: false` when the loop would go on. */
  step(): Promise<LoopStepResult> {
    return this.withLock((driver) => (driver instanceof LoopDriver ? driver.drive(true) : Promise.resolve(driver)));
  }

  /**
   * Dry run: gathers and evaluates as the loop would now, and writes nothing
   * (no events, no state, no lock). Command criteria still run unless
   * `skipCommands` is set (then they are PENDING).
   */
  async evaluate(options: { readonly skipCommands?: boolean } = {}): Promise<GoalEvaluation> {
    const { fs } = this.options;
    const [goal, state, latest] = await Promise.all([
      this.loadGoal(),
      loadLoopState(fs, this.paths.state),
      readLatestIterationStarted(fs, this.paths.events),
    ]);
    const iteration = latest ?? (state !== null && state.iteration > 0 ? state.iteration : null);
    if (!goal.ok) return errorEvaluation(goal.goalId, goal.issues, iteration);
    const stageStatus = state?.stage_status ?? {};
    return evaluateGoal(await this.gather(goal.goal, stageStatus, state, iteration, options.skipCommands ?? false));
  }

  // Takes the run lock, prepares the session (resume or open), drives it, and releases the lock.
  private async withLock<T>(work: (session: PreparedSession) => Promise<T>): Promise<T> {
    const owner = `goal-loop:${globalThis.process?.pid ?? 'browser'}:${globalThis.crypto.randomUUID()}`;
    const lock = new RunLock(this.options.fs, this.paths.lock, this.clock, owner, this.lockTimeoutMs);
    const takeover = await lock.acquire();
    let failed = false;
    try {
      const context = this.context(lock);
      return await work(
        await prepareSession(context, { maxIterations: effectiveMaxIterations(this.options.maxIterations), takeover }),
      );
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      await lock.release().catch((error: unknown) => {
        if (!failed) throw error;
      });
    }
  }

  // The effects the driver asks for, bound to this loop's options.
  private context(lock: RunLock): LoopContext {
    const { fs, signal, budgetUsd } = this.options;
    return {
      fs,
      paths: this.paths,
      stages: this.options.stages,
      runner: this.options.runner,
      clock: this.clock,
      signal,
      events: new EventLog(fs, this.paths.events, this.options.onEvent),
      budgetUsd,
      acceptGoalChange: this.options.acceptGoalChange ?? false,
      isoNow: () => new Date(this.clock.now()).toISOString(),
      saveState: async (state) => {
        await saveLoopState(fs, this.paths.state, state);
        await lock.heartbeat();
      },
      loadGoal: () => this.loadGoal(),
      gather: (goal, state) => this.gather(goal, state.stage_status, state, state.iteration, false),
      withHeartbeat: (work) => withHeartbeat(lock, this.clock, Math.max(1, Math.floor(this.lockTimeoutMs / 3)), work),
    };
  }

  // Loads the goal from the option (parsed once) or the run's goal.json (parsed again only when its text changes).
  private async loadGoal(): Promise<LoadedGoal> {
    if (this.options.goal !== undefined) {
      this.optionGoal ??= await loadGoal(this.options.fs, this.paths.goal, this.options.goal, this.options.stages);
      return this.optionGoal;
    }
    const text = await this.options.fs.readText(this.paths.goal);
    if (this.fileGoal === undefined || this.fileGoal.text !== text)
      this.fileGoal = { text, loaded: loadGoalText(text, this.options.stages) };
    return this.fileGoal.loaded;
  }

  // Gathers the evaluation facts for the given record of stage statuses.
  private gather(
    goal: Goal,
    stageStatus: LoopState['stage_status'],
    state: LoopState | null,
    iteration: number | null,
    skipCommands: boolean,
  ) {
    const loopState: DocumentFact =
      state === null
        ? { state: 'missing', detail: `${this.paths.state} does not exist` }
        : { state: 'present', document: state };
    const statuses = Object.fromEntries(
      this.options.stages.map((stage) => [stage, stageStatus[stage] ?? ('pending' as const)]),
    );
    return gatherFacts({
      fs: this.options.fs,
      paths: this.paths,
      goal,
      stages: this.options.stages,
      feedbackStage: this.feedbackStage,
      iteration,
      stageStatuses: statuses,
      loopState,
      commands: this.options.commands,
      skipCommands,
      concurrency: this.options.concurrency ?? this.options.commands?.concurrency ?? 4,
      signal: this.options.signal,
      checker: this.checker,
    });
  }
}
