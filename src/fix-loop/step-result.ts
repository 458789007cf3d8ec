import type { Issue } from '../errors.js';
import type { FixAttempt } from './contracts/attempt.js';
import type { AuditEntry, FixSessionStatus } from './contracts/audit.js';
import type { FixCandidate } from './contracts/candidate.js';
import type { FixAction } from './contracts/decision.js';
import type { EscalationReport } from './contracts/escalation.js';
import type { GapModel } from './contracts/gap.js';
import type { FixSessionState } from './contracts/session.js';

/**
 * What one `step()` did: the step's index and action, the session's status
 * after it, the policy's sentence and what the step did, the gap after it,
 * and, as they apply, the candidates proposed (well-formed ones), the attempt
 * made, the escalation report, and the audit line written for an earlier
 * step found cut off (a crash) before this one acted.
 *
 * @public
 */
export interface FixStepResult {
  readonly session_id: string;
  readonly step_index: number;
  readonly action: FixAction;
  readonly status: FixSessionStatus;
  readonly rationale: string;
  readonly description: string;
  readonly gap: GapModel | null;
  readonly candidates?: readonly FixCandidate[];
  readonly attempt?: FixAttempt;
  readonly escalation?: EscalationReport;
  readonly interrupted?: AuditEntry;
}

/**
 * What `runToCompletion()` reports: the session's status and last gap, how
 * many steps this call took, the escalation report when it escalated
 * (`wall_time` when the wall-time budget ran out between steps), the last
 * step's result, and the whole audit log.
 *
 * @public
 */
export interface FixLoopRunResult {
  readonly session_id: string;
  readonly status: FixSessionStatus;
  readonly steps_taken: number;
  readonly gap: GapModel | null;
  readonly escalation: EscalationReport | null;
  readonly last_step: FixStepResult | null;
  readonly audit: readonly AuditEntry[];
}

/**
 * What `get()` reports: the session's record (every field of state.json:
 * status, gap, attempts, escalation, …) and the last entries of its audit log
 * (oldest first) in `audit_tail`.
 *
 * @public
 */
export type FixSessionView = FixSessionState & { readonly audit_tail: readonly AuditEntry[] };

/**
 * What `start()` returns: the new session's id, its status (`pending`), and
 * notes on the input that did not stop it (a `max_attempts` clamped to the
 * cap), each with its JSON path.
 *
 * @public
 */
export interface FixLoopStarted {
  readonly sessionId: string;
  readonly status: 'pending';
  readonly issues: readonly Issue[];
}

/** Options of `FixLoopOrchestrator.runToCompletion`. @public */
export interface RunToCompletionOptions {
  /** Stop between steps once this many ms have passed, escalating the session `wall_time` (default: no limit). */
  readonly maxWallMs?: number;
}

/** True for a session that converged or escalated: it takes no more steps. @internal */
export function isTerminal(status: FixSessionStatus): boolean {
  return status === 'converged' || status === 'escalated';
}

/** What `runToCompletion()` reports, from the session as it ended and the steps this call took. Pure. @internal */
export function runResult(view: FixSessionView, steps: number, last: FixStepResult | null): FixLoopRunResult {
  return {
    session_id: view.session_id,
    status: view.status,
    steps_taken: steps,
    gap: view.gap,
    escalation: view.escalation,
    last_step: last,
    audit: view.audit_tail,
  };
}
