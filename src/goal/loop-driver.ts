import type { StageOutcome, StageRunReason } from '../ports/stage-runner.js';
import type { LoopState } from './contracts/loop-state.js';
import { checkBudget, decideAfterEvaluation, type StopReason } from './core/decide.js';
import { errorEvaluation, evaluateGoal, type GoalEvaluation } from './core/evaluate.js';
import { progressFingerprint } from './core/fingerprint.js';
import {
  afterEvaluation,
  beginEvaluation,
  GOAL_CHANGED_REASON,
  goalChanged,
  interrupt,
  stageCompleted,
  stageStarted,
  startIteration,
  stopWith,
  type Transition,
} from './core/transitions.js';
import type { LoadedGoal } from './goal-source.js';
import { checkStageOutcome, commitTransition, type LoopContext } from './loop-context.js';
import type { LoopResult, LoopStepResult } from './loop-result.js';
import { writeRecordedSpend } from './state-store.js';

// The signal stage runners get when the host passed none.
const NEVER_ABORTED = new AbortController().signal;

// The fields every result shares, read off the run's record.
function progressOf(
  state: LoopState,
  reason: string,
  evaluation: GoalEvaluation | null,
): Omit<LoopResult, 'stoppedOn'> {
  return {
    iterations: state.session?.iterations ?? 0,
    iteration: state.iteration,
    evaluation,
    reason,
    spentUsd: state.spent_usd,
  };
}

// Builds the plain result of a stop.
function resultOf(
  state: LoopState,
  stoppedOn: StopReason,
  reason: string,
  evaluation: GoalEvaluation | null,
): LoopResult {
  return { stoppedOn, ...progressOf(state, reason, evaluation) };
}

/**
 * Drives one open session of a run, one iteration at a time: run the pending
 * stages, evaluate, decide, and persist every change before acting on it.
 * Holds the run's record in memory; `commit` writes it (with its events in
 * the outbox) and then appends the events.
 *
 * @internal
 */
export class LoopDriver {
  private evaluation: GoalEvaluation | null = null;

  constructor(
    private readonly ctx: LoopContext,
    private state: LoopState,
    private resumeReason: StageRunReason | null,
  ) {}

  // Persists a transition: state first (events in its outbox), then the events.
  private async commit(transition: Transition): Promise<void> {
    this.state = await commitTransition(this.ctx, transition);
  }

  // Ends the session with a terminal stop.
  private async stop(stoppedOn: StopReason, reason: string): Promise<LoopResult> {
    await this.commit(stopWith(this.state, stoppedOn, reason, this.ctx.isoNow()));
    return resultOf(this.state, stoppedOn, reason, this.evaluation);
  }

  // Stops without ending the session (abort, unaccepted goal change): the next run resumes.
  private async pause(stoppedOn: 'aborted' | 'ask_user', reason: string, transition?: Transition): Promise<LoopResult> {
    await this.commit(transition ?? interrupt(this.state, stoppedOn, reason, this.ctx.isoNow()));
    return resultOf(this.state, stoppedOn, reason, this.evaluation);
  }

  /** Runs iterations until a stop (`once`: exactly one iteration). */
  async drive(once: boolean): Promise<LoopStepResult> {
    for (;;) {
      const outcome = await this.iterate();
      if ('stoppedOn' in outcome) return { ...outcome, done: true };
      if (once)
        return {
          ...progressOf(this.state, outcome.reason, this.evaluation),
          stoppedOn: null,
          done: false,
          rerunStages: outcome.rerun,
        };
    }
  }

  // One iteration from wherever the record stands; returns a stop, or the retry it scheduled.
  private async iterate(): Promise<LoopResult | { rerun: readonly string[]; reason: string }> {
    if (this.state.phase === 'idle') {
      const blocked = await this.beginIteration();
      if (blocked !== null) return blocked;
    } else if (this.state.phase === 'running_stages') {
      // A resumed iteration: goal.json may have changed while no loop was running (an evaluation checks it itself).
      const changed = await this.checkGoal(await this.ctx.loadGoal());
      if (changed !== null) return changed;
    }
    if (this.state.phase === 'running_stages') {
      const stopped = await this.runStages();
      if (stopped !== null) return stopped;
      await this.commit(beginEvaluation(this.state, this.ctx.isoNow()));
    }
    return this.evaluateAndDecide();
  }

  // Checks the brakes and the goal, then starts the next iteration with the stages it runs.
  private async beginIteration(): Promise<LoopResult | null> {
    if (this.ctx.signal?.aborted) return this.pause('aborted', 'Aborted by the caller before the next iteration.');
    const budget = checkBudget(this.state.spent_usd, this.ctx.budgetUsd);
    if (budget !== null) return this.stop('budget_exhausted', budget.reason);
    const goal = await this.ctx.loadGoal();
    const changed = await this.checkGoal(goal);
    if (changed !== null) return changed;
    if (!goal.ok) {
      this.evaluation = errorEvaluation(goal.goalId, goal.issues, this.state.iteration);
      return this.stop('evaluation_error', this.evaluation.reason);
    }
    const stages = this.ctx.stages.filter((stage) => (this.state.stage_status[stage] ?? 'pending') === 'pending');
    await this.commit(startIteration(this.state, stages, this.ctx.isoNow()));
    this.resumeReason =
      this.state.retry !== null
        ? { kind: 'retry', reason: this.state.retry.reason, criteria: this.state.retry.criteria }
        : { kind: 'initial' };
    return null;
  }

  // A goal.json that changed since the session started stops the loop unless the host accepts it.
  private async checkGoal(goal: LoadedGoal): Promise<LoopResult | null> {
    const session = this.state.session;
    if (session === null || session.goal_hash === goal.hash) return null;
    const transition = goalChanged(this.state, {
      goalId: goal.goalId,
      goalHash: goal.hash,
      accepted: this.ctx.acceptGoalChange,
      ts: this.ctx.isoNow(),
    });
    if (!this.ctx.acceptGoalChange) return this.pause('ask_user', GOAL_CHANGED_REASON, transition);
    await this.commit(transition);
    return null;
  }

  // Runs the iteration's stages not finished yet, in pipeline order, checking the budget after each.
  private async runStages(): Promise<LoopResult | null> {
    const done = new Set(this.state.completed_stages.map((record) => record.stage));
    for (const stage of this.state.iteration_stages) {
      if (done.has(stage)) continue;
      if (this.ctx.signal?.aborted) return this.pause('aborted', `Aborted by the caller before stage ${stage}.`);
      await this.commit(stageStarted(this.state, stage, this.ctx.isoNow()));
      const started = this.ctx.clock.now();
      const outcome = await this.runStage(stage);
      if (outcome === null)
        return this.pause('aborted', `Aborted by the caller during stage ${stage}; it reruns when the loop resumes.`);
      await this.commit(
        stageCompleted(this.state, stage, outcome, Math.max(0, this.ctx.clock.now() - started), this.ctx.isoNow()),
      );
      if ((outcome.costUsd ?? 0) !== 0)
        await writeRecordedSpend(this.ctx.fs, this.ctx.paths.metrics, this.state.spent_usd);
      const budget = checkBudget(this.state.spent_usd, this.ctx.budgetUsd);
      if (budget !== null) return this.stop('budget_exhausted', budget.reason);
    }
    return null;
  }

  // Calls the host's runner; a throw is a failed stage, an abort is `null`.
  private async runStage(stage: string): Promise<StageOutcome | null> {
    const signal = this.ctx.signal ?? NEVER_ABORTED;
    const context = {
      runDir: this.ctx.paths.runDir,
      iteration: this.state.iteration,
      reason: this.resumeReason ?? { kind: 'initial' as const },
      previousEvaluation: this.evaluation,
      fs: this.ctx.fs,
      signal,
    };
    try {
      const outcome = await this.ctx.withHeartbeat(() => this.ctx.runner.run(stage, context));
      return signal.aborted ? null : checkStageOutcome(stage, outcome);
    } catch (error) {
      if (signal.aborted) return null;
      return {
        status: 'failed',
        detail: `The stage runner threw: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
  }

  // Gathers, evaluates (pure), decides (pure), and records the decision.
  private async evaluateAndDecide(): Promise<LoopResult | { rerun: readonly string[]; reason: string }> {
    const goal = await this.ctx.loadGoal();
    // Never evaluate under a goal the session has not accepted (it may change while a stage runs).
    const changed = await this.checkGoal(goal);
    if (changed !== null) return changed;
    const evaluation = goal.ok
      ? evaluateGoal(await this.ctx.withHeartbeat(() => this.ctx.gather(goal.goal, this.state)))
      : errorEvaluation(goal.goalId, goal.issues, this.state.iteration);
    this.evaluation = evaluation;
    if (this.ctx.signal?.aborted) return this.pause('aborted', 'Aborted by the caller during the evaluation.');
    const fingerprint = progressFingerprint(evaluation, this.state.stage_status);
    const decision = decideAfterEvaluation({
      evaluation,
      spentUsd: this.state.spent_usd,
      budgetUsd: this.ctx.budgetUsd,
      iterationsInSession: this.state.session?.iterations ?? 0,
      maxIterations: this.state.session?.max_iterations ?? 1,
      fingerprint,
      previousFingerprint: this.state.last_fingerprint,
    });
    const ts = this.ctx.isoNow();
    if (decision.kind === 'retry') {
      await this.commit(afterEvaluation(this.state, { evaluation, fingerprint, ts, decision }));
      return { rerun: decision.stages, reason: decision.reason };
    }
    const reason = explainStop(decision.stoppedOn, decision.reason, evaluation, this.state.iteration);
    await this.commit(afterEvaluation(this.state, { evaluation, fingerprint, ts, decision: { ...decision, reason } }));
    return resultOf(this.state, decision.stoppedOn, reason, evaluation);
  }
}

// Adds what a human can do next to an ASK_USER stop caused by a missing verdict.
function explainStop(stoppedOn: StopReason, reason: string, evaluation: GoalEvaluation, iteration: number): string {
  const waiting = evaluation.criteria
    .filter((criterion) => criterion.kind === 'judge' && criterion.status === 'PENDING')
    .map((criterion) => criterion.id);
  if (stoppedOn !== 'ask_user' || waiting.length === 0) return reason;
  return `${reason} To continue, write goal-verdict.json with a verdict for ${waiting.join(', ')} stamped "iteration": ${iteration + 1} (the next iteration) and run the loop again.`;
}
