import type { JsonValue } from '../contracts/decision.js';
import type { ExecutionState } from '../contracts/execution-state.js';
import type { StagedResult } from '../contracts/result.js';
import type { TraceRecord } from '../contracts/trace.js';
import { INITIAL_CAUSE } from './rerun-causes.js';

/** The record of an execution that has not run yet: its first stage's first generator call is next. Pure. @internal */
export function initialExecutionState(input: {
  readonly executionId: string;
  readonly spec: JsonValue;
  readonly specHash: string;
  readonly nextSeq: number;
  readonly ts: string;
}): ExecutionState {
  return {
    schema_version: 1,
    execution_id: input.executionId,
    spec: input.spec,
    spec_hash: input.specHash,
    status: 'running',
    escalation: null,
    reason: null,
    stage_index: 0,
    phase: 'generate',
    pending: null,
    cause: INITIAL_CAUSE,
    rerun_causes: {},
    outputs: {},
    gaps: [],
    attempts: {},
    retries: {},
    backtracks: 0,
    spent_usd: 0,
    judgements: [],
    next_seq: input.nextSeq,
    outbox: [],
    updated_at: input.ts,
  };
}

/** The result of a finished execution, from its record and its trace. Pure. @internal */
export function resultOf(state: ExecutionState, trace: readonly TraceRecord[]): StagedResult {
  if (state.status === 'running') throw new Error('unreachable: a running execution has no result');
  return {
    executionId: state.execution_id,
    status: state.status,
    reason: state.reason ?? state.status,
    escalation: state.escalation,
    outputs: state.outputs,
    gaps: state.gaps,
    attempts: state.attempts,
    backtracks: state.backtracks,
    spentUsd: state.spent_usd,
    trace: [...trace],
  };
}
