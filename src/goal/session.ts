import { GoalLoopError } from '../errors.js';
import type { OutboxCommit } from '../persist/outbox.js';
import type { RunPaths } from '../pipeline/run-paths.js';
import type { Clock } from '../ports/clock.js';
import type { FileSystem } from '../ports/file-system.js';
import type { StageRunReason } from '../ports/stage-runner.js';
import type { LoopEvent } from './contracts/events.js';
import type { LoopState } from './contracts/loop-state.js';
import { evaluateGoal, type GoalEvaluation } from './core/evaluate.js';
import type { EvaluationFacts } from './core/facts.js';
import { type LoopEffect, type LoopInput, type MachineConfig, transition } from './core/machine.js';
import { initialState, lockTakenOver, openSession, resumed } from './core/session-transitions.js';
import type { LoadedGoal } from './goal-source.js';
import { iterationEvaluationPath, readLatestIterationStarted } from './loop-events.js';
import type { LoopResult, LoopStepResult } from './loop-result.js';
import { readRstackStageStatuses } from './rstack-state.js';
import { raiseRecordedSpend, readRecordedSpend } from './spend.js';
import { callStage } from './stage-call.js';
import type { StageRunner } from './stage-runner.js';

/** Everything a session works with: the ports, the run's files, and the loop's settings. @internal */
export interface SessionDeps {
  readonly fs: FileSystem;
  readonly paths: RunPaths;
  readonly runner: StageRunner;
  readonly clock: Clock;
  readonly signal: AbortSignal;
  readonly commit: OutboxCommit<LoopState, LoopEvent>;
  readonly stages: readonly string[];
  readonly budgetUsd: number | undefined;
  readonly acceptGoalChange: boolean;
  readonly maxIterations: { readonly value: number; readonly requested?: number };
  /** Loads the goal (parsed again only when it changed). */
  readonly loadGoal: () => Promise<LoadedGoal>;
  /** Gathers the evaluation's facts for the run's record at this moment. */
  readonly gather: (goal: LoadedGoal & { ok: true }, state: LoopState) => Promise<EvaluationFacts>;
  /** The time limit of a stage (none when undefined). */
  readonly stageTimeoutMs: (stage: string) => number | undefined;
  /** Checks this loop still holds the run's lock; called before every write (RUN_LOCKED when it lost it). */
  readonly fence: () => Promise<void>;
  /** Keeps the run's lock fresh while `work` runs (a stage, an evaluation). */
  readonly heartbeat: <T>(work: () => Promise<T>) => Promise<T>;
}

/**
 * One session of a run, driven by the pure {@link transition}: the shell
 * observes (the signal, the spend, the goal, a stage's outcome, an
 * evaluation), asks the transition what comes next, commits the new record
 * with its events, and carries out the effect. It decides nothing itself.
 *
 * @internal
 */
export class LoopSession {
  private evaluation: GoalEvaluation | null = null;

  private constructor(
    private readonly deps: SessionDeps,
    private state: LoopState,
    private goal: LoadedGoal,
    private readonly config: MachineConfig,
  ) {}

  /**
   * Loads or creates the run's record, delivers a pending outbox, logs a lock
   * takeover, then resumes the unfinished session or opens a new one. A stop
   * whose events were still undelivered (the caller never saw it) is returned
   * as it was decided.
   */
  static async open(
    deps: SessionDeps,
    takeover: { previousOwner: string; ageMs: number } | null,
  ): Promise<LoopSession | LoopStepResult> {
    const { fs, paths, commit } = deps;
    const iso = (): string => new Date(deps.clock.now()).toISOString();
    const [saved, goal] = await Promise.all([commit.store.load(), deps.loadGoal()]);
    let state = saved ?? (await freshState(deps, goal, iso()));
    if (saved !== null) {
      await checkSaved(saved, deps);
      const delivered = await commit.deliver(saved);
      // A crash after the state's commit but before metrics.json caught up: raise it (never lower it).
      await raiseRecordedSpend(fs, paths.metrics, saved.spent_usd);
      if (delivered > 0 && saved.phase === 'stopped' && saved.stop !== null) {
        // The takeover is logged even when the stop it finds was never reported.
        if (takeover !== null)
          await commit.commit(lockTakenOver(saved, takeover.previousOwner, takeover.ageMs, iso()).state);
        return savedStop(saved, saved.stop);
      }
    }
    if (takeover !== null)
      state = await commit.commit(lockTakenOver(state, takeover.previousOwner, takeover.ageMs, iso()).state);
    const resuming = state.session !== null && state.phase !== 'stopped';
    if (resuming) state = await commit.commit(resumed(state, iso()).state);
    else {
      state = openSession(state, {
        stages: deps.stages,
        maxIterations: deps.maxIterations,
        goalId: goal.goalId,
        goalHash: goal.hash,
        ts: iso(),
      });
    }
    const config: MachineConfig = {
      stages: deps.stages,
      budgetUsd: deps.budgetUsd,
      acceptGoalChange: deps.acceptGoalChange,
      resumedIteration: resuming && state.phase === 'running_stages' ? state.iteration : null,
    };
    return new LoopSession(deps, state, goal, config);
  }

  /** Runs iterations until a stop (`once`: until the end of exactly one iteration). */
  async drive(once: boolean): Promise<LoopStepResult> {
    let input: LoopInput = await this.observeGoal();
    for (;;) {
      const step = transition(this.state, input, this.config);
      if (step.state !== this.state) await this.commit(step.state);
      const effect: LoopEffect = step.effect;
      switch (effect.kind) {
        case 'run_stage':
          input = await this.runStage(effect.stage, effect.reason);
          break;
        case 'load_goal':
          this.goal = await this.deps.loadGoal();
          input = await this.observeGoal();
          break;
        case 'evaluate':
          input = { ...(await this.observed()), type: 'evaluated', evaluation: await this.evaluate() };
          break;
        case 'retry':
          if (once)
            return { ...this.progress(effect.reason), stoppedOn: null, done: false, rerunStages: effect.stages };
          input = await this.observeGoal();
          break;
        case 'stop':
          if (effect.evaluation !== undefined) this.evaluation = effect.evaluation;
          return { ...this.progress(effect.reason), stoppedOn: effect.stoppedOn, done: true };
        default: {
          const unreachable: never = effect;
          throw new Error(`unknown loop effect ${JSON.stringify(unreachable)}`);
        }
      }
    }
  }

  // Commits the next record with its events; spend it added is then recorded in metrics.json.
  private async commit(next: LoopState): Promise<void> {
    const spent = this.state.spent_usd;
    this.state = await this.deps.commit.commit(next);
    if (next.spent_usd > spent) {
      await this.deps.fence();
      await raiseRecordedSpend(this.deps.fs, this.deps.paths.metrics, next.spent_usd);
    }
  }

  // What every input carries: the signal, the spend recorded in metrics.json (re-read each time), the time.
  private async observed(): Promise<Pick<LoopInput, 'aborted' | 'spentUsd' | 'ts'>> {
    const spentUsd = await readRecordedSpend(this.deps.fs, this.deps.paths.metrics);
    const now = this.deps.clock.now();
    return { aborted: this.deps.signal.aborted, spentUsd, ts: new Date(now).toISOString() };
  }

  // A checkpoint with the goal as last loaded.
  private async observeGoal(): Promise<LoopInput> {
    const { goal } = this;
    return {
      ...(await this.observed()),
      type: 'checkpoint',
      goal: { goalId: goal.goalId, hash: goal.hash, issues: goal.ok ? null : goal.issues },
    };
  }

  // Runs one stage through the host's runner and reports how it finished.
  private async runStage(stage: string, reason: StageRunReason): Promise<LoopInput> {
    const started = this.deps.clock.now();
    const result = await callStage({
      runner: this.deps.runner,
      stage,
      runDir: this.deps.paths.runDir,
      iteration: this.state.iteration,
      reason,
      previousEvaluation: this.evaluation,
      fs: this.deps.fs,
      clock: this.deps.clock,
      signal: this.deps.signal,
      timeoutMs: this.deps.stageTimeoutMs(stage),
      heartbeat: this.deps.heartbeat,
    });
    const durationMs = Math.max(0, this.deps.clock.now() - started);
    const finished = { ...(await this.observed()), type: 'stage_finished' as const, stage, durationMs };
    return result.kind === 'done'
      ? { ...finished, outcome: result.outcome }
      : { ...finished, outcome: null, abortedCostUsd: result.costUsd };
  }

  // Gathers under the goal just loaded (never one the session has not accepted) and evaluates (pure).
  private async evaluate(): Promise<GoalEvaluation> {
    const { goal } = this;
    if (!goal.ok) throw new Error('unreachable: an invalid goal stops the loop before its evaluation');
    const facts = await this.deps.heartbeat(() => this.deps.gather(goal, this.state));
    this.evaluation = evaluateGoal(facts);
    // The whole evaluation of every iteration stays readable (what failed, in which iteration).
    await this.deps.fence();
    await this.deps.fs.writeText(
      iterationEvaluationPath(this.deps.paths.runDir, this.state.iteration),
      `${JSON.stringify(this.evaluation, null, 2)}\n`,
    );
    return this.evaluation;
  }

  // The fields every result shares, read off the run's record.
  private progress(reason: string): Omit<LoopResult, 'stoppedOn'> {
    const { state } = this;
    return {
      iterations: state.session?.iterations ?? 0,
      iteration: state.iteration,
      evaluation: this.evaluation,
      reason,
      spentUsd: state.spent_usd,
    };
  }
}

// The record of a run this library has not looped on yet: it continues the log's iteration count, the recorded
// spend, and the stages another tool (rstack-agents) recorded as passed.
async function freshState(deps: SessionDeps, goal: LoadedGoal, ts: string): Promise<LoopState> {
  const [iteration, lastSeq, spent, recorded] = await Promise.all([
    readLatestIterationStarted(deps.fs, deps.paths.events),
    deps.commit.log.lastSequence(),
    readRecordedSpend(deps.fs, deps.paths.metrics),
    readRstackStageStatuses(deps.fs, deps.paths, deps.stages),
  ]);
  return initialState({
    goalId: goal.goalId,
    goalHash: goal.hash,
    stages: deps.stages,
    passed: new Set(Object.keys(recorded).filter((stage) => recorded[stage] === 'passed')),
    iteration: iteration ?? 0,
    spentUsd: spent,
    nextSeq: lastSeq + 1,
    ts,
  });
}

// The result of a stop already recorded in the run's state (only its summary is kept, not the evaluation).
function savedStop(state: LoopState, stop: NonNullable<LoopState['stop']>): LoopStepResult {
  return {
    done: true,
    stoppedOn: stop.stopped_on,
    iterations: state.session?.iterations ?? 0,
    iteration: state.iteration,
    evaluation: null,
    reason: stop.reason,
    spentUsd: state.spent_usd,
  };
}

// What loop-state.json says must agree with the pipeline and the log; a hand edit that does not is named, never run.
async function checkSaved(state: LoopState, deps: SessionDeps): Promise<void> {
  const file = deps.paths.state;
  const unknown = state.iteration_stages.findIndex((stage) => !deps.stages.includes(stage));
  if (unknown >= 0) {
    const stage = state.iteration_stages[unknown];
    throw corrupt(`${file}: iteration_stages[${unknown}] is "${stage}", which is not a stage of this pipeline`, [
      'iteration_stages',
      unknown,
    ]);
  }
  const lastSeq = await deps.commit.log.lastSequence();
  const pending = state.outbox[0]?.seq ?? state.next_seq;
  if (lastSeq >= pending && lastSeq >= state.next_seq) {
    throw corrupt(
      `${file}: next_seq is ${state.next_seq}, but ${deps.paths.events} already holds seq ${lastSeq}; new events would be dropped as already delivered`,
      ['next_seq'],
    );
  }
}

// A STATE_CORRUPT error naming the field.
function corrupt(message: string, path: (string | number)[]): GoalLoopError {
  return new GoalLoopError('STATE_CORRUPT', `${message}. Move loop-state.json aside to start the loop afresh.`, {
    issues: [{ code: 'state_mismatch', path, message }],
  });
}
