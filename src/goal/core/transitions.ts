import type { StageOutcome } from '../../ports/stage-runner.js';
import type { LoopEvent, LoopEventDraft } from '../contracts/events.js';
import type { LoopState } from '../contracts/loop-state.js';
import type { StopReason } from './decide.js';
import type { GoalEvaluation } from './evaluate.js';

/**
 * A state change of the loop's record and the events that tell it. Pure
 * functions build them; the shell persists `state` (with the events in its
 * outbox) and then appends the events.
 *
 * @internal
 */
export interface Transition {
  readonly state: LoopState;
  readonly events: readonly LoopEvent[];
}

type Fields<T extends LoopEventDraft['type']> = Omit<
  Extract<LoopEventDraft, { type: T }>,
  'ts' | 'type' | 'iteration' | 'max_iterations' | 'goal_id'
>;

// Stamps events with the common fields and consecutive `seq` numbers, and puts them in the outbox.
function emit(
  state: LoopState,
  ts: string,
  drafts: readonly { type: LoopEventDraft['type']; fields: object }[],
): Transition {
  let seq = state.next_seq;
  const events = drafts.map(({ type, fields }) => ({
    ts,
    type,
    iteration: state.iteration,
    max_iterations: state.session?.max_iterations ?? 0,
    goal_id: state.goal_id,
    seq: seq++,
    ...fields,
  })) as LoopEvent[];
  return { state: { ...state, next_seq: seq, outbox: events, updated_at: ts }, events };
}

// Builds one event draft of the given type.
function draft<T extends LoopEventDraft['type']>(type: T, fields: Fields<T>): { type: T; fields: object } {
  return { type, fields };
}

/** A new, unsaved record for a run: no session yet, every stage pending. @internal */
export function initialState(input: {
  goalId: string;
  goalHash: string;
  stages: readonly string[];
  iteration: number;
  spentUsd: number;
  nextSeq: number;
  ts: string;
}): LoopState {
  return {
    schema_version: 1,
    goal_id: input.goalId,
    goal_hash: input.goalHash,
    iteration: input.iteration,
    session: null,
    phase: 'idle',
    iteration_stages: [],
    completed_stages: [],
    stage_status: Object.fromEntries(input.stages.map((stage) => [stage, 'pending' as const])),
    retry: null,
    last_fingerprint: null,
    last_evaluation: null,
    spent_usd: input.spentUsd,
    stop: null,
    next_seq: input.nextSeq,
    outbox: [],
    updated_at: input.ts,
  };
}

/**
 * Opens a session: its iterations continue the run-wide counter. Its first
 * iteration runs every stage not yet passed, plus the stages the last
 * evaluation asked to rerun when it was a RETRY.
 *
 * @internal
 */
export function openSession(
  state: LoopState,
  input: { stages: readonly string[]; maxIterations: number; goalId: string; goalHash: string; ts: string },
): LoopState {
  const index = (state.session?.index ?? 0) + 1;
  const session = {
    index,
    started_at_iteration: state.iteration,
    max_iterations: input.maxIterations,
    iterations: 0,
    goal_hash: input.goalHash,
  };
  const rerun = new Set(
    state.last_evaluation?.status === 'RETRY' ? state.last_evaluation.recommended_rerun_stages : [],
  );
  const stageStatus = Object.fromEntries(
    input.stages.map((stage) => {
      const status = state.stage_status[stage] ?? 'pending';
      return [stage, status === 'passed' && !rerun.has(stage) ? status : ('pending' as const)];
    }),
  );
  return {
    ...state,
    goal_id: input.goalId,
    goal_hash: input.goalHash,
    session,
    phase: 'idle',
    stage_status: stageStatus,
    retry: null,
    stop: null,
    outbox: [],
    updated_at: input.ts,
  };
}

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

/** Records that a stage is about to run. @internal */
export function stageStarted(state: LoopState, stage: string, ts: string): Transition {
  return emit(state, ts, [draft('stage_started', { stage })]);
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
    spent_usd: state.spent_usd + cost,
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
  stoppedOn: 'aborted' | 'ask_user',
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

/** Why a loop asks the user when goal.json changed mid-session. @internal */
export const GOAL_CHANGED_REASON =
  'Goal changed since this session started; rerun with acceptGoalChange: true to continue under the new goal.';

/** Resuming an unfinished session. @internal */
export function resumed(state: LoopState, ts: string): Transition {
  const done = new Set(state.completed_stages.map((record) => record.stage));
  const pending = state.phase === 'running_stages' ? state.iteration_stages.filter((stage) => !done.has(stage)) : [];
  return emit(state, ts, [draft('loop_resumed', { phase: state.phase, pending_stages: pending })]);
}

/** goal.json changed since the session started: accepted (hash updated) or an interruption asking the user. @internal */
export function goalChanged(
  state: LoopState,
  input: { goalId: string; goalHash: string; accepted: boolean; ts: string },
): Transition {
  const previous = state.session?.goal_hash ?? state.goal_hash;
  const changed = draft('goal_changed', {
    previous_hash: previous,
    current_hash: input.goalHash,
    accepted: input.accepted,
  });
  if (!input.accepted) {
    return interrupt(state, 'ask_user', GOAL_CHANGED_REASON, input.ts, [changed]);
  }
  const session = state.session === null ? null : { ...state.session, goal_hash: input.goalHash };
  return emit({ ...state, goal_id: input.goalId, goal_hash: input.goalHash, session }, input.ts, [changed]);
}

/** Logs that a stale lock was taken over. @internal */
export function lockTakenOver(state: LoopState, previousOwner: string, ageMs: number, ts: string): Transition {
  return emit(state, ts, [draft('lock_taken_over', { previous_owner: previousOwner, heartbeat_age_ms: ageMs })]);
}
