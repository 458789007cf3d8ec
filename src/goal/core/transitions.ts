import { addUsd } from '../../kit/usd.js';
import type { StageOutcome, StageRunReason } from '../../ports/stage-runner.js';
import type { LoopEventDraft } from '../contracts/events.js';
import type { LoopState } from '../contracts/loop-state.js';
import type { StopReason } from '../contracts/stop-reason.js';
import { draft, emit, type Transition } from './emit.js';
import type { GoalEvaluation } from './evaluate.js';

export type { Transition } from './emit.js';

/** Starts the next run-wide iteration with the stages it will run. @internal */
export function startIteration(state: LoopState, stages: readonly string[], ts: string): Transition {
  const session = state.session === null ? null : { ...state.session, iterations: state.session.iterations + 1 };
  const stageStatus = {
    ...state.stage_status,
    ...Object.fromEntries(stages.map((stage) => [stage, 'pending' as const])),
  };
  const next: LoopState = {
    ...state,
    iteration: state.iteration + 1,
    session,
    phase: 'running_stages',
    iteration_stages: [...stages],
    completed_stages: [],
    stage_status: stageStatus,
  };
  return emit(next, ts, [
    draft('loop_iteration_started', { stages: [...stages], session_iteration: session?.iterations ?? 1 }),
  ]);
}

/** Records that a stage is about to run, and in which iteration it last ran. @internal */
export function stageStarted(state: LoopState, stage: string, ts: string): Transition {
  // A record made before stage runs were kept knows nothing older: verdicts from before it are stale.
  const since = state.stage_runs === undefined ? state.iteration : (state.goal_since ?? 0);
  const next: LoopState = {
    ...state,
    stage_runs: { ...state.stage_runs, [stage]: state.iteration },
    goal_since: since,
  };
  return emit(next, ts, [draft('stage_started', { stage })]);
}

/** Records a finished stage, its status and its cost. @internal */
export function stageCompleted(
  state: LoopState,
  stage: string,
  outcome: StageOutcome,
  durationMs: number,
  ts: string,
): Transition {
  const cost = outcome.costUsd ?? 0;
  const record = {
    stage,
    status: outcome.status,
    cost_usd: cost,
    duration_ms: durationMs,
    ...(outcome.detail === undefined ? {} : { detail: outcome.detail }),
  };
  const next: LoopState = {
    ...state,
    completed_stages: [...state.completed_stages, record],
    stage_status: { ...state.stage_status, [stage]: outcome.status },
    spent_usd: addUsd(state.spent_usd, cost),
  };
  return emit(next, ts, [
    draft('stage_completed', {
      stage,
      status: outcome.status,
      cost_usd: cost,
      duration_ms: durationMs,
      ...(outcome.detail === undefined ? {} : { detail: outcome.detail }),
    }),
  ]);
}

/** The evaluation event, then either the retry (stages reset to pending) or the stop. @internal */
export function afterEvaluation(
  state: LoopState,
  input: {
    evaluation: GoalEvaluation;
    fingerprint: string;
    ts: string;
    decision:
      | { kind: 'retry'; stages: readonly string[]; reason: string }
      | { kind: 'stop'; stoppedOn: StopReason; reason: string };
  },
): Transition {
  const { evaluation, decision } = input;
  const evaluated = draft('goal_evaluated', {
    status: evaluation.status,
    score: evaluation.score,
    critical_count: evaluation.criticalCount,
    failing_stages: [...evaluation.failingStages],
    recommended_rerun_stages: [...evaluation.recommendedRerunStages],
    reason: evaluation.reason,
  });
  const recorded: LoopState = {
    ...state,
    last_fingerprint: input.fingerprint,
    last_evaluation: {
      status: evaluation.status,
      score: evaluation.score,
      reason: evaluation.reason,
      recommended_rerun_stages: [...evaluation.recommendedRerunStages],
    },
  };
  if (decision.kind === 'stop')
    return stopWith(recorded, decision.stoppedOn, decision.reason, input.ts, [evaluated], evaluation.score);
  const failing = evaluation.criteria
    .filter((criterion) => criterion.status !== 'PASS')
    .map((criterion) => criterion.id);
  const next: LoopState = {
    ...recorded,
    phase: 'idle',
    stage_status: {
      ...recorded.stage_status,
      ...Object.fromEntries(decision.stages.map((stage) => [stage, 'pending' as const])),
    },
    retry: { reason: decision.reason, criteria: failing },
  };
  return emit(next, input.ts, [
    evaluated,
    draft('loop_iteration_retrying_stages', { stages: [...decision.stages], reason: decision.reason }),
  ]);
}

/** A terminal stop: `loop_completed` for `complete`, `loop_blocked` otherwise. @internal */
export function stopWith(
  state: LoopState,
  stoppedOn: StopReason,
  reason: string,
  ts: string,
  before: readonly { type: LoopEventDraft['type']; fields: object }[] = [],
  score?: number,
): Transition {
  const next: LoopState = {
    ...state,
    phase: 'stopped',
    retry: null,
    stop: { stopped_on: stoppedOn, reason, iteration: state.iteration },
  };
  const final =
    stoppedOn === 'complete'
      ? draft('loop_completed', { score: score ?? state.last_evaluation?.score ?? 100, reason })
      : draft('loop_blocked', { stopped_on: stoppedOn, reason });
  return emit(next, ts, [...before, final]);
}

/** A stop that leaves the session resumable (an abort, an unaccepted goal change). @internal */
export function interrupt(
  state: LoopState,
  stoppedOn: StopReason,
  reason: string,
  ts: string,
  before: readonly { type: LoopEventDraft['type']; fields: object }[] = [],
): Transition {
  return emit(state, ts, [...before, draft('loop_blocked', { stopped_on: stoppedOn, reason })]);
}

/** Stages done: the iteration moves on to its evaluation (no event; the phase is recorded). @internal */
export function beginEvaluation(state: LoopState, ts: string): Transition {
  return { state: { ...state, phase: 'evaluating', outbox: [], updated_at: ts }, events: [] };
}

/** The stages of the current iteration not finished yet, in order. @internal */
export function pendingStages(state: LoopState): string[] {
  const done = new Set(state.completed_stages.map((record) => record.stage));
  return state.iteration_stages.filter((stage) => !done.has(stage));
}

/** Why this iteration's stages run: a resumed iteration, a RETRY, or the first pass. @internal */
export function runReason(state: LoopState, resumedIteration: number | null): StageRunReason {
  const retry = state.retry === null ? undefined : { reason: state.retry.reason, criteria: state.retry.criteria };
  if (resumedIteration === state.iteration) return retry === undefined ? { kind: 'resume' } : { kind: 'resume', retry };
  return retry === undefined ? { kind: 'initial' } : { kind: 'retry', ...retry };
}

/** The judge criteria an evaluation asks a human about: pending, and not deferred. @internal */
export function askedJudges(evaluation: {
  readonly criteria: readonly { readonly id: string; readonly kind: string; readonly status: string }[];
  readonly deferredJudges?: readonly { readonly criterionId: string }[];
}): string[] {
  const deferred = new Set((evaluation.deferredJudges ?? []).map((judge) => judge.criterionId));
  return evaluation.criteria
    .filter((criterion) => criterion.kind === 'judge' && criterion.status === 'PENDING' && !deferred.has(criterion.id))
    .map((criterion) => criterion.id);
}

/** Adds what a human can do next to an ASK_USER stop caused by a missing verdict. @internal */
export function explainStop(
  stoppedOn: StopReason,
  reason: string,
  evaluation: GoalEvaluation,
  iteration: number,
): string {
  const waiting = askedJudges(evaluation);
  if (stoppedOn !== 'ask_user' || waiting.length === 0) return reason;
  return `${reason} To continue, write a verdict for ${waiting.join(', ')} (writeVerdict does it, or write goal-verdict.json stamped "iteration": ${iteration + 1}, the next iteration) and run the loop again.`;
}
