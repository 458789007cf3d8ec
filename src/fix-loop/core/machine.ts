import type { FixAttempt } from '../contracts/attempt.js';
import type { AuditEntry, FixSessionStatus } from '../contracts/audit.js';
import type { FixCandidate } from '../contracts/candidate.js';
import type { EscalationReason, FixAction, PolicyDecision } from '../contracts/decision.js';
import type { EscalationReport } from '../contracts/escalation.js';
import type { FixSessionState } from '../contracts/session.js';
import { candidateHash } from './candidates.js';
import { buildEscalationReport } from './escalation.js';
import { heldAttempts } from './keep.js';
import { decideNextAction } from './policy.js';

/** What an action did: the record after it (not committed yet), its audit sentence, and what it applied. @internal */
export interface Acted {
  readonly state: FixSessionState;
  readonly description: string;
  readonly applied: string | null;
  readonly candidates?: readonly FixCandidate[];
  readonly attempt?: FixAttempt;
  readonly escalate?: { readonly reason: EscalationReason; readonly detail: string };
}

/** What the shell observed: a step to take (or an escalation without acting), or the action it carried out. @internal */
export type FixInput =
  | {
      readonly type: 'step';
      readonly ts: string;
      readonly durationMs: number;
      readonly escalate?: { readonly reason: EscalationReason; readonly rationale: string };
    }
  | {
      readonly type: 'acted';
      readonly ts: string;
      readonly durationMs: number;
      readonly decision: PolicyDecision;
      readonly gapBefore: number | null;
      readonly acted: Acted;
    };

/** What the shell does next: take the step again (a cut-off step closed), act, or report the committed step. @internal */
export type FixEffect =
  | { readonly kind: 'step_again'; readonly interrupted: AuditEntry }
  | { readonly kind: 'act'; readonly decision: PolicyDecision; readonly gapBefore: number | null }
  | { readonly kind: 'report'; readonly index: number; readonly outcome: StepOutcome };

/** How a step ended: the record it leaves and what its audit line and result say. @internal */
export interface StepOutcome {
  readonly state: FixSessionState;
  readonly action: FixAction;
  readonly rationale: string;
  readonly description: string;
  readonly candidateApplied: string | null;
  readonly status: FixSessionStatus;
  readonly escalation: EscalationReport | null;
  readonly gapBefore: number | null;
  readonly candidates?: readonly FixCandidate[] | undefined;
  readonly attempt?: FixAttempt | undefined;
}

/**
 * The fix session as one pure transition: from its record and what the shell observed, the record to commit (its
 * audit line in the outbox) and the one thing the shell does next. @internal
 */
export function transition(state: FixSessionState, input: FixInput): { state: FixSessionState; effect: FixEffect } {
  if (input.type === 'acted') {
    const outcome = outcomeAfterAction(input.decision, input.acted, input.gapBefore);
    return finish(state, outcome, input);
  }
  const cut = state.step_in_progress;
  if (cut !== null) {
    // A step cut off by a crash or an abort: no gap (measured again), its candidate kept tried.
    const entry = interruptedEntry(cut.step_index, cut.action, cut.candidate_hash, state.gap?.gap ?? null);
    const next = {
      ...state,
      status: 'running' as const,
      gap: null,
      step_in_progress: null,
      step_count: cut.step_index + 1,
    };
    return {
      state: { ...next, outbox: [entry], updated_at: input.ts },
      effect: { kind: 'step_again', interrupted: entry },
    };
  }
  const decision: PolicyDecision =
    input.escalate === undefined ? decideNextAction(state) : { action: 'escalate', ...input.escalate, confidence: 1 };
  if (decision.action === 'converged' || decision.action === 'escalate')
    return finish(state, outcomeWithoutAction(state, decision), input);
  const progress = { step_index: state.step_count, action: decision.action };
  const next = { ...state, status: 'running' as const, step_in_progress: progress, outbox: [], updated_at: input.ts };
  return { state: next, effect: { kind: 'act', decision, gapBefore: state.gap?.gap ?? null } };
}

// The step done: the record it leaves, with its audit line.
function finish(
  state: FixSessionState,
  outcome: StepOutcome,
  input: FixInput,
): { state: FixSessionState; effect: FixEffect } {
  const index = state.step_count;
  const entry = stepEntry(index, outcome, input.durationMs);
  const next: FixSessionState = {
    ...outcome.state,
    status: outcome.status,
    escalation: outcome.escalation,
    step_in_progress: null,
    step_count: index + 1,
    outbox: [entry],
    updated_at: input.ts,
  };
  return { state: next, effect: { kind: 'report', index, outcome } };
}

// After an action: escalate when it did (the selector) or the policy now does, converge when the policy says so.
function outcomeAfterAction(decision: PolicyDecision, acted: Acted, gapBefore: number | null): StepOutcome {
  const next = acted.escalate === undefined ? decideNextAction(acted.state) : null;
  const reason = acted.escalate?.reason ?? (next?.action === 'escalate' ? next.reason : undefined);
  const detail = acted.escalate?.detail ?? next?.rationale ?? '';
  return {
    state: acted.state,
    action: decision.action,
    rationale: decision.rationale,
    description: acted.description,
    candidateApplied: acted.applied,
    status: reason !== undefined ? 'escalated' : next?.action === 'converged' ? 'converged' : 'running',
    escalation: reason === undefined ? null : escalationReport(acted.state, reason, detail),
    gapBefore,
    candidates: acted.candidates,
    attempt: acted.attempt,
  };
}

// A step that ends the session on a decision taken before acting (converged, or escalate).
function outcomeWithoutAction(state: FixSessionState, decision: PolicyDecision): StepOutcome {
  const escalation =
    decision.reason === undefined ? null : escalationReport(state, decision.reason, decision.rationale);
  return {
    state,
    action: decision.action,
    rationale: decision.rationale,
    description: decision.rationale,
    candidateApplied: null,
    status: escalation === null ? 'converged' : 'escalated',
    escalation,
    gapBefore: state.gap?.gap ?? null,
  };
}

// The report of a session escalating now, listing the manual candidates it kept that were not tried.
function escalationReport(state: FixSessionState, reason: EscalationReason, detail: string): EscalationReport {
  const tried = new Set(state.tried);
  const untried = state.manual_candidates.filter((candidate) => !tried.has(candidateHash(candidate)));
  return buildEscalationReport(state, reason, untried, detail);
}

// The audit line of step `index`.
function stepEntry(index: number, outcome: StepOutcome, durationMs: number): AuditEntry {
  return {
    seq: index,
    step_index: index,
    action_type: outcome.action,
    action_description: outcome.description,
    candidate_applied: outcome.candidateApplied,
    gap_before: outcome.gapBefore,
    gap_after: outcome.state.gap?.gap ?? null,
    session_status_after: outcome.status,
    duration_ms: Math.max(0, durationMs),
    workspace_holds: heldAttempts(outcome.state.attempts),
  };
}

// The audit line of a step found cut off: nothing applied, no gap after it.
function interruptedEntry(
  index: number,
  action: FixAction,
  candidateHash: string | undefined,
  gapBefore: number | null,
): AuditEntry {
  const candidate = candidateHash === undefined ? '' : 'its candidate stays tried (never applied twice), and ';
  return {
    seq: index,
    step_index: index,
    action_type: action,
    action_description: `Step ${index} (${action}) was cut off before it finished; ${candidate}the gap is measured again.`,
    candidate_applied: null,
    gap_before: gapBefore,
    gap_after: null,
    session_status_after: 'running',
    duration_ms: 0,
    interrupted: true,
  };
}
