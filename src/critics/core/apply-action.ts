import { ownValue } from '../../kit/record.js';
import type { CriticIssue } from '../contracts/decision.js';
import type { ExecutionState } from '../contracts/execution-state.js';
import type { RouteAction, TraceRecord } from '../contracts/trace.js';
import { arriveAt, INITIAL_CAUSE, oweRouteBack } from './rerun-causes.js';

/** A trace record before its `seq` and `ts` are stamped. @internal */
export type RecordDraft = TraceRecord extends infer R ? (R extends TraceRecord ? Omit<R, 'seq' | 'ts'> : never) : never;

/** A state change and the trace records that tell it (also in the state's outbox). @internal */
export interface Transition {
  readonly state: ExecutionState;
  readonly records: readonly TraceRecord[];
}

/** Stamps drafts with `ts` and consecutive `seq` numbers and puts them in the outbox. Pure. @internal */
export function emit(state: ExecutionState, ts: string, drafts: readonly RecordDraft[]): Transition {
  let seq = state.next_seq;
  const records = drafts.map((draft) => ({ ...draft, seq: seq++, ts }) as TraceRecord);
  return { state: { ...state, next_seq: seq, outbox: records, updated_at: ts }, records };
}

// Keeps the entries of a by-stage record whose stage is before `index` in `stages`.
function keepBefore<T>(record: Record<string, T>, stages: readonly string[], index: number): Record<string, T> {
  const kept = new Set(stages.slice(0, index));
  return Object.fromEntries(Object.entries(record).filter(([stage]) => kept.has(stage)));
}

/** Applies a routed action to the state. @internal */
export function applyAction(
  state: ExecutionState,
  stages: readonly string[],
  action: RouteAction,
  issues: readonly CriticIssue[],
): { state: ExecutionState; finished: RecordDraft | null } {
  const stage = stages[state.stage_index] ?? '';
  const base = { ...state, pending: null, phase: 'generate' as const };
  switch (action.kind) {
    case 'accept':
    case 'accept_with_gaps': {
      const gaps = action.kind === 'accept_with_gaps' ? [...state.gaps, { stage, issues: [...issues] }] : state.gaps;
      const outputs = { ...state.outputs, [stage]: state.pending?.output ?? null };
      const next = { ...base, outputs, gaps, cause: INITIAL_CAUSE };
      const following = stages[state.stage_index + 1];
      if (following !== undefined) {
        const { cause, owed } = arriveAt(state.rerun_causes, following);
        const advanced = { ...next, stage_index: state.stage_index + 1, cause, rerun_causes: owed };
        return { state: advanced, finished: null };
      }
      const withGaps = gaps.length === 0 ? '' : ` with gaps at ${gaps.map((gap) => gap.stage).join(', ')}`;
      const accepted = stages.length === 1 ? 'its one stage accepted' : `all ${stages.length} stages accepted`;
      return finish(next, 'completed', `${accepted}${withGaps}`, null);
    }
    case 'retry':
      return {
        state: {
          ...base,
          retries: { ...state.retries, [stage]: (ownValue(state.retries, stage) ?? 0) + 1 },
          cause: { kind: 'retry', issues: [...issues], reason: null },
        },
        finished: null,
      };
    case 'route_back': {
      const to = stages.indexOf(action.to);
      const cause = {
        kind: 'route_back' as const,
        issues: [...issues],
        reason: `the ${stage} critic routed back to ${action.to}`,
      };
      return {
        state: {
          ...base,
          stage_index: to,
          backtracks: state.backtracks + 1,
          outputs: keepBefore(state.outputs, stages, to),
          gaps: state.gaps.filter((gap) => stages.indexOf(gap.stage) < to),
          retries: keepBefore(state.retries, stages, to),
          cause,
          rerun_causes: oweRouteBack(state.rerun_causes, stages, state.stage_index, to, cause),
        },
        finished: null,
      };
    }
    case 'confirm':
      // The output stays pending for the stage's second critic.
      return { state: { ...state, phase: 'confirm' }, finished: null };
    case 'escalate':
      return finish({ ...state, pending: null }, 'escalated', action.detail, action.reason);
    default: {
      const unreachable: never = action;
      throw new Error(`unknown action ${JSON.stringify(unreachable)}`);
    }
  }
}

// The terminal state and its finished record.
function finish(
  state: ExecutionState,
  status: 'completed' | 'escalated',
  reason: string,
  escalation: ExecutionState['escalation'],
): { state: ExecutionState; finished: RecordDraft } {
  return {
    state: { ...state, status, reason, escalation },
    finished: { kind: 'finished', status, reason, escalation },
  };
}
