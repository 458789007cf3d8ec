import type { FixAttempt } from './contracts/attempt.js';
import type { AuditEntry, FixSessionStatus } from './contracts/audit.js';
import type { FixCandidate } from './contracts/candidate.js';
import type { EscalationReason, FixAction, PolicyDecision } from './contracts/decision.js';
import type { EscalationReport } from './contracts/escalation.js';
import type { FixSessionState, StepInProgress } from './contracts/session.js';
import { candidateHash } from './core/candidates.js';
import { buildEscalationReport } from './core/escalation.js';
import { fixNeeded } from './core/fix-needed.js';
import { heldAttempts } from './core/keep.js';
import { decideNextAction } from './core/policy.js';
import type { EscalationFiles } from './escalation-files.js';
import type { Acted } from './session-actions.js';
import type { FixStepResult } from './step-result.js';

/** How a step ended, before it is committed: the record it leaves and what its audit line and result say. @internal */
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
 * Observes an action's result: the session escalates when the action did
 * (the selector) or when the policy now says escalate, converges when the
 * policy now says converged, else goes on. Pure.
 *
 * @internal
 */
export function outcomeAfterAction(decision: PolicyDecision, acted: Acted, gapBefore: number | null): StepOutcome {
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

/** A step that ends the session on a decision taken before acting (converged, or escalate). Pure. @internal */
export function outcomeWithoutAction(state: FixSessionState, decision: PolicyDecision): StepOutcome {
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

/** The audit line of step `index`. Pure. @internal */
export function stepEntry(index: number, outcome: StepOutcome, durationMs: number): AuditEntry {
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

/** What `step()` returns for step `index`, from the committed record and the report files written. Pure. @internal */
export function stepResult(
  state: FixSessionState,
  index: number,
  outcome: StepOutcome,
  files: EscalationFiles | null,
): FixStepResult {
  const needs = fixNeeded(state);
  return {
    sessionId: state.session_id,
    stepIndex: index,
    action: outcome.action,
    status: outcome.status,
    rationale: outcome.rationale,
    description: outcome.description,
    gap: state.gap,
    ...(outcome.candidates === undefined ? {} : { candidates: outcome.candidates }),
    ...(outcome.attempt === undefined ? {} : { attempt: outcome.attempt }),
    ...(outcome.escalation === null ? {} : { escalation: outcome.escalation }),
    ...(files === null ? {} : { escalationFiles: files }),
    ...(needs === null ? {} : { needsFix: needs }),
  };
}

/**
 * The audit line of a step found cut off (a crash or an abort): `interrupted`,
 * nothing applied, no gap after it (the next step measures again). Pure.
 *
 * @internal
 */
export function interruptedEntry(cut: StepInProgress, gapBefore: number | null): AuditEntry {
  const candidate = cut.candidate_hash === undefined ? '' : 'its candidate stays tried (never applied twice), and ';
  return {
    seq: cut.step_index,
    step_index: cut.step_index,
    action_type: cut.action,
    action_description: `Step ${cut.step_index} (${cut.action}) was cut off before it finished; ${candidate}the gap is measured again.`,
    candidate_applied: null,
    gap_before: gapBefore,
    gap_after: null,
    session_status_after: 'running',
    duration_ms: 0,
    interrupted: true,
  };
}
