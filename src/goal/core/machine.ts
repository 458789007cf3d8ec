import { ownValue } from '../../kit/record.js';
import { addUsd } from '../../kit/usd.js';
import type { StageOutcome } from '../../ports/stage-runner.js';
import type { LoopState } from '../contracts/loop-state.js';
import { decideLoop, type LoopStop } from './decide.js';
import { chain, withOutbox } from './emit.js';
import { errorEvaluation, type GoalEvaluation } from './evaluate.js';
import { progressFingerprint } from './fingerprint.js';
import type { GoalSnapshot, LoopEffect, LoopInput, LoopStep, MachineConfig } from './loop-io.js';
import { goalChanged } from './session-transitions.js';
import type { GoalFacts, LoopFacts } from './stop-rules.js';
import {
  afterEvaluation,
  beginEvaluation,
  explainStop,
  interrupt,
  pendingStages,
  runReason,
  stageCompleted,
  stageStarted,
  startIteration,
  stopWith,
  type Transition,
} from './transitions.js';

/** The goal loop as one pure transition. @internal */
export function transition(recorded: LoopState, input: LoopInput, config: MachineConfig): LoopStep {
  // Spend recorded elsewhere (metrics.json) counts; the loop only ever adds to it.
  const state = input.spentUsd > recorded.spent_usd ? { ...recorded, spent_usd: input.spentUsd } : recorded;
  switch (input.type) {
    case 'checkpoint':
      return checkpoint(state, input, config);
    case 'stage_finished':
      return stageFinished(state, input, config);
    case 'evaluated':
      return evaluated(state, input, config);
    default: {
      const unreachable: never = input;
      throw new Error(`unknown loop input ${JSON.stringify(unreachable)}`);
    }
  }
}

type Observed = Pick<LoopInput, 'aborted' | 'spentUsd' | 'ts'>;

// The facts every checkpoint shares.
function factsOf(state: LoopState, input: Observed, config: MachineConfig, abortedAt: string): LoopFacts {
  return {
    aborted: input.aborted,
    abortedAt,
    spentUsd: state.spent_usd,
    budgetUsd: config.budgetUsd,
    iterationsInSession: state.session?.iterations ?? 0,
    maxIterations: state.session?.max_iterations ?? 1,
    requestedMaxIterations: state.session?.max_iterations_requested,
  };
}

// Before the iteration (idle), on resuming its stages (running_stages), or before its evaluation (evaluating).
function checkpoint(state: LoopState, input: Observed & { goal: GoalSnapshot }, config: MachineConfig): LoopStep {
  const goal = goalFacts(state, input.goal, config);
  const decision = decideLoop({ ...factsOf(state, input, config, abortedAt(state)), goal });
  const changed = goal.changed
    ? goalChanged(state, {
        goalId: input.goal.goalId,
        goalHash: input.goal.hash,
        accepted: config.acceptGoalChange,
        ts: input.ts,
      })
    : { state, events: [] };
  const current = changed.state;
  if (decision.kind === 'stop' && decision.rule === 'invalid_goal' && current.phase === 'evaluating') {
    // An invalid goal met at the evaluation is that iteration's evaluation (an error), recorded as such.
    return chain(changed.events, { state: current, events: [] }, (next) =>
      evaluated(next, { ...input, evaluation: errorOf(next, input.goal) }, config),
    );
  }
  if (decision.kind === 'stop') return stopStep(current, decision, input.ts, changed.events, input.goal);
  if (current.phase === 'idle') {
    const stages = config.stages.filter((stage) => (ownValue(current.stage_status, stage) ?? 'pending') === 'pending');
    return chain(changed.events, startIteration(current, stages, input.ts), (next) =>
      nextStage(next, input.ts, config),
    );
  }
  if (current.phase === 'running_stages') {
    return chain(changed.events, { state: current, events: [] }, (next) => nextStage(next, input.ts, config));
  }
  return { ...withOutbox(current, changed.events), effect: { kind: 'evaluate' } };
}

// Where an abort noticed at a checkpoint stopped the loop, in the words of its reason.
function abortedAt(state: LoopState): string {
  if (state.phase === 'evaluating') return 'before the evaluation';
  const next = state.phase === 'running_stages' ? pendingStages(state)[0] : undefined;
  return next === undefined ? 'before the next iteration' : `before stage ${next}`;
}

// A stage came back: record it (an abort mid-stage records nothing: the stage reruns), then the next stage or the evaluation.
function stageFinished(
  state: LoopState,
  input: Observed & { stage: string; outcome: StageOutcome | null; abortedCostUsd?: number; durationMs: number },
  config: MachineConfig,
): LoopStep {
  if (input.outcome === null) {
    const reason = `Aborted by the caller during stage ${input.stage}; it reruns when the loop resumes.`;
    const spent = { ...state, spent_usd: addUsd(state.spent_usd, input.abortedCostUsd ?? 0) };
    return { ...interrupt(spent, 'aborted', reason, input.ts), effect: { kind: 'stop', stoppedOn: 'aborted', reason } };
  }
  const done = stageCompleted(state, input.stage, input.outcome, input.durationMs, input.ts);
  const upcoming = pendingStages(done.state)[0];
  const where = upcoming === undefined ? 'before the evaluation' : `before stage ${upcoming}`;
  const decision = decideLoop(factsOf(done.state, input, config, where));
  if (decision.kind === 'stop') return stopStep(done.state, decision, input.ts, done.events);
  return chain(done.events, { state: done.state, events: [] }, (next) => nextStage(next, input.ts, config));
}

// The evaluation came back: record it with the decision (a retry, or a stop).
function evaluated(
  state: LoopState,
  input: Observed & { evaluation: GoalEvaluation },
  config: MachineConfig,
): LoopStep {
  const { evaluation } = input;
  const fingerprint = progressFingerprint(evaluation, state.stage_status);
  const decision = decideLoop({
    ...factsOf(state, input, config, 'during the evaluation'),
    evaluation,
    fingerprint,
    previousFingerprint: state.last_fingerprint,
  });
  if (decision.kind === 'continue') throw new Error('unreachable: an evaluation always decides');
  if (decision.kind === 'stop' && decision.resumable) {
    const { stoppedOn, reason } = decision;
    return { ...interrupt(state, stoppedOn, reason, input.ts), effect: { kind: 'stop', stoppedOn, reason } };
  }
  const reason =
    decision.kind === 'stop'
      ? explainStop(decision.stoppedOn, decision.reason, evaluation, state.iteration)
      : decision.reason;
  const recorded = afterEvaluation(state, { evaluation, fingerprint, ts: input.ts, decision: { ...decision, reason } });
  const effect: LoopEffect =
    decision.kind === 'retry'
      ? { kind: 'retry', stages: decision.stages, reason }
      : { kind: 'stop', stoppedOn: decision.stoppedOn, reason, evaluation };
  return { ...recorded, effect, evaluation };
}

// The goal's facts for the stop rules: changed since the session started, accepted, valid.
function goalFacts(state: LoopState, goal: GoalSnapshot, config: MachineConfig): GoalFacts {
  const changed = state.session !== null && state.session.goal_hash !== goal.hash;
  const valid = goal.issues === null;
  return {
    changed,
    accepted: config.acceptGoalChange,
    valid,
    ...(valid ? {} : { reason: errorOf(state, goal).reason }),
  };
}

// The evaluation of an invalid goal (built here only).
function errorOf(state: LoopState, goal: GoalSnapshot): GoalEvaluation {
  return errorEvaluation(goal.goalId, goal.issues ?? [], state.iteration);
}

// A stop decided at a checkpoint: resumable ones interrupt the session, the rest end it.
function stopStep(
  state: LoopState,
  decision: LoopStop,
  ts: string,
  before: Transition['events'],
  goal?: GoalSnapshot,
): LoopStep {
  const { stoppedOn, reason } = decision;
  const evaluation = decision.rule === 'invalid_goal' && goal !== undefined ? errorOf(state, goal) : undefined;
  const stopped = decision.resumable ? interrupt(state, stoppedOn, reason, ts) : stopWith(state, stoppedOn, reason, ts);
  const effect: LoopEffect = { kind: 'stop', stoppedOn, reason, ...(evaluation === undefined ? {} : { evaluation }) };
  return { ...withOutbox(stopped.state, [...before, ...stopped.events]), effect };
}

// Starts the next pending stage, or moves on to the evaluation (loading the goal first).
function nextStage(state: LoopState, ts: string, config: MachineConfig): LoopStep {
  const stage = pendingStages(state)[0];
  if (stage === undefined) return { ...beginEvaluation(state, ts), effect: { kind: 'load_goal' } };
  return {
    ...stageStarted(state, stage, ts),
    effect: { kind: 'run_stage', stage, reason: runReason(state, config.resumedIteration) },
  };
}
