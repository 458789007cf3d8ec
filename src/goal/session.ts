import type { StageRunReason } from '../ports/stage-runner.js';
import { onlyClearsOutbox } from '../runtime/outbox.js';
import type { LoopState } from './contracts/loop-state.js';
import { evaluateGoal, type GoalEvaluation } from './core/evaluate.js';
import type { LoopEffect, LoopInput, MachineConfig } from './core/loop-io.js';
import { transition } from './core/machine.js';
import type { TakenOverLock } from './core/session-transitions.js';
import type { LoadedGoal } from './goal-source.js';
import { foldPendingLateCosts, parkUncommittedCost, type UncommittedCost, watchLateCost } from './late-costs.js';
import { writeIterationEvaluation } from './loop-events.js';
import type { LoopResult, LoopStepResult } from './loop-result.js';
import type { IfStopped } from './run-options.js';
import type { SessionDeps } from './session-deps.js';
import { openRecord } from './session-open.js';
import { raiseRecordedSpend, readRecordedSpend } from './spend.js';
import { callStage } from './stage-call.js';

/** One session of a run: observes, asks the pure {@link transition}, commits, carries out the effect. @internal */
export class LoopSession {
  private evaluation: GoalEvaluation | null = null;
  // The last stage's cost until a saved record holds it: parked in spend-pending/ if the lock is lost first.
  private uncommitted: UncommittedCost | null = null;

  private constructor(
    private readonly deps: SessionDeps,
    private state: LoopState,
    private goal: LoadedGoal,
    private readonly config: MachineConfig,
  ) {}

  /** The session to drive, or a stop recorded earlier (see {@link openRecord}). */
  static async open(
    deps: SessionDeps,
    takeover: TakenOverLock | null,
    ifStopped: IfStopped,
  ): Promise<LoopSession | LoopStepResult> {
    const opened = await openRecord(deps, takeover, ifStopped);
    return opened.kind === 'stopped' ? opened.result : new LoopSession(deps, opened.state, opened.goal, opened.config);
  }

  /** Runs iterations until a stop (`once`: until the end of exactly one iteration). */
  async drive(once: boolean): Promise<LoopStepResult> {
    try {
      return await this.iterate(once);
    } catch (error) {
      const { fs, lateCostFolder: folder, clock } = this.deps;
      await parkUncommittedCost(error, this.uncommitted, { fs, folder, clock });
      throw error;
    }
  }

  // The loop of observe, transition, commit, carry out.
  private async iterate(once: boolean): Promise<LoopStepResult> {
    let input: LoopInput = await this.observeGoal();
    for (;;) {
      const step = transition(this.state, input, this.config);
      const { evaluation } = step;
      const effect: LoopEffect = step.effect;
      if (evaluation !== undefined) await this.commit(step.state, this.record(evaluation));
      else if (step.state !== this.state) await this.commit(step.state, undefined, !announces(input, effect));
      switch (effect.kind) {
        case 'run_stage':
          input = await this.runStage(effect.stage, effect.reason);
          break;
        case 'load_goal':
          this.goal = await this.deps.loadGoal();
          input = await this.observeGoal();
          break;
        case 'evaluate': {
          const evaluation = await this.deps.trace.evaluation(this.state.iteration, () => this.evaluate());
          // Observed once the evaluation is made, so an abort during it (its commands killed) is seen.
          input = { ...(await this.observed()), type: 'evaluated', evaluation };
          break;
        }
        case 'retry':
          this.deps.trace.decided('retry', this.evaluation, effect.stages);
          if (once)
            return { ...this.progress(effect.reason), stoppedOn: null, done: false, rerunStages: effect.stages };
          input = await this.observeGoal();
          break;
        case 'stop':
          if (effect.evaluation !== undefined) this.evaluation = effect.evaluation;
          this.deps.trace.decided(effect.stoppedOn, this.evaluation);
          return { ...this.progress(effect.reason), stoppedOn: effect.stoppedOn, done: true };
        default: {
          const unreachable: never = effect;
          throw new Error(`unknown loop effect ${JSON.stringify(unreachable)}`);
        }
      }
    }
  }

  // Fenced once; synced unless it only announces work; a record that only empties the delivered outbox is not written.
  private async commit(next: LoopState, alongside?: () => Promise<void>, sync = true): Promise<void> {
    if (alongside === undefined && onlyClearsOutbox(this.state, next)) {
      this.state = next;
      return;
    }
    const spent = this.state.spent_usd;
    await this.deps.commit.save(next, alongside, { sync });
    this.state = next;
    this.uncommitted = null;
    await this.deps.commit.append(next);
    if (next.spent_usd > spent) await raiseRecordedSpend(this.deps.fs, this.deps.paths.metrics, next.spent_usd);
  }

  // Spend is re-read every time, late costs folded in first, so every budget check sees them.
  private async observed(): Promise<Pick<LoopInput, 'aborted' | 'spentUsd' | 'ts'>> {
    this.state = await foldPendingLateCosts(this.deps, this.state);
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
    const { iteration } = this.state;
    const span = this.deps.trace.stage(iteration, stage, reason);
    const result = await span.within(() =>
      callStage({
        runner: this.deps.runner,
        stage,
        runDir: this.deps.paths.runDir,
        iteration,
        reason,
        previousEvaluation: this.evaluation,
        fs: this.deps.fs,
        clock: this.deps.clock,
        signal: this.deps.signal,
        timeoutMs: this.deps.stageTimeoutMs(stage),
        heartbeat: this.deps.heartbeat,
        lateCost: (late) => watchLateCost(late, { ...this.deps, folder: this.deps.lateCostFolder, stage, iteration }),
      }),
    );
    const costUsd = result.kind === 'done' ? (result.outcome.costUsd ?? 0) : result.costUsd;
    this.uncommitted = costUsd > 0 ? { stage, iteration, costUsd } : null;
    const durationMs = Math.max(0, this.deps.clock.now() - started);
    this.deps.trace.stageFinished(span, result, durationMs);
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
    return evaluateGoal(facts, { askJudges: this.deps.askJudges });
  }

  // The whole evaluation stays readable, written with the record that holds it.
  private record(evaluation: GoalEvaluation): () => Promise<void> {
    this.evaluation = evaluation;
    return () => writeIterationEvaluation(this.deps.fs, this.deps.paths.runDir, this.state.iteration, evaluation);
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

// Announcing steps (iteration or stage started) are not durable points of their own (SPEC §10).
function announces(input: LoopInput, effect: LoopEffect): boolean {
  return input.type === 'checkpoint' && effect.kind === 'run_stage';
}
