import { ownValue } from '../../kit/record.js';
import type { LoopState } from '../contracts/loop-state.js';
import { draft, emit, type Transition } from './emit.js';

/** A new, unsaved record for a run: no session yet, every stage pending but those recorded passed before. @internal */
export function initialState(input: {
  goalId: string;
  goalHash: string;
  stages: readonly string[];
  /** Stages another tool already recorded as passed (an rstack-agents run): they stay passed. */
  passed?: ReadonlySet<string>;
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
    stage_status: Object.fromEntries(
      input.stages.map((stage) => [stage, input.passed?.has(stage) ? ('passed' as const) : ('pending' as const)]),
    ),
    stage_runs: {},
    // What ran before this loop is not known: its first iteration is the oldest a verdict may be stamped for.
    goal_since: input.iteration + 1,
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

/** Opens a session: its iterations continue the run-wide counter. @internal */
export function openSession(
  state: LoopState,
  input: {
    stages: readonly string[];
    maxIterations: { readonly value: number; readonly requested?: number };
    goalId: string;
    goalHash: string;
    ts: string;
  },
): LoopState {
  const index = (state.session?.index ?? 0) + 1;
  const session = {
    index,
    started_at_iteration: state.iteration,
    max_iterations: input.maxIterations.value,
    ...(input.maxIterations.requested === undefined ? {} : { max_iterations_requested: input.maxIterations.requested }),
    iterations: 0,
    goal_hash: input.goalHash,
  };
  const rerun = new Set(
    state.last_evaluation?.status === 'RETRY' ? state.last_evaluation.recommended_rerun_stages : [],
  );
  const stageStatus = Object.fromEntries(
    input.stages.map((stage) => {
      const status = ownValue(state.stage_status, stage) ?? 'pending';
      return [stage, status === 'passed' && !rerun.has(stage) ? status : ('pending' as const)];
    }),
  );
  // A new goal judges afresh: verdicts stamped before its first iteration are stale.
  const changed = input.goalHash !== state.goal_hash;
  return {
    ...state,
    goal_id: input.goalId,
    goal_hash: input.goalHash,
    ...(changed ? { goal_since: state.iteration + 1 } : {}),
    session,
    phase: 'idle',
    stage_status: stageStatus,
    retry: null,
    stop: null,
    outbox: [],
    updated_at: input.ts,
  };
}

/** Resuming an unfinished session. @internal */
export function resumed(state: LoopState, ts: string): Transition {
  const done = new Set(state.completed_stages.map((record) => record.stage));
  const pending = state.phase === 'running_stages' ? state.iteration_stages.filter((stage) => !done.has(stage)) : [];
  return emit(state, ts, [draft('loop_resumed', { phase: state.phase, pending_stages: pending })]);
}

/** goal.json changed since the session started: the event, and the new hash when the host accepts the change. @internal */
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
  if (!input.accepted) return emit(state, input.ts, [changed]);
  const session = state.session === null ? null : { ...state.session, goal_hash: input.goalHash };
  // Mid-iteration the iteration's own verdicts still count, as they always did; between iterations, none before the next.
  const running = state.phase === 'running_stages' || state.phase === 'evaluating';
  const since = running ? state.iteration : state.iteration + 1;
  const next = { ...state, goal_id: input.goalId, goal_hash: input.goalHash, goal_since: since, session };
  return emit(next, input.ts, [changed]);
}

/** A stale lock taken over: whose it was, how old its heartbeat, and why it was stale. @internal */
export interface TakenOverLock {
  readonly previousOwner: string;
  readonly ageMs: number;
  readonly reason: 'heartbeat_stale' | 'holder_gone' | 'no_record';
}

/** Logs that a stale lock was taken over. @internal */
export function lockTakenOver(state: LoopState, takeover: TakenOverLock, ts: string): Transition {
  const { previousOwner, ageMs, reason } = takeover;
  return emit(state, ts, [
    draft('lock_taken_over', { previous_owner: previousOwner, heartbeat_age_ms: ageMs, reason }),
  ]);
}
