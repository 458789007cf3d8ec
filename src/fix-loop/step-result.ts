import type { Issue } from '../errors.js';
import type { FixAttempt } from './contracts/attempt.js';
import type { AuditEntry, FixSessionStatus } from './contracts/audit.js';
import type { FixCandidate } from './contracts/candidate.js';
import type { FixAction } from './contracts/decision.js';
import type { EscalationReport } from './contracts/escalation.js';
import type { GapModel } from './contracts/gap.js';
import type { FixSessionState } from './contracts/session.js';
import type { EscalationFiles } from './escalation-files.js';

/**
 * What one `step()` did: the step's index and action, the session's status
 * after it, the policy's sentence and what the step did, the gap after it,
 * and, as they apply, the candidates proposed (well-formed ones), the attempt
 * made, the escalation report with the files it was written to
 * (`escalation.json`, `escalation.md`), and the audit line written for an
 * earlier step found cut off (a crash) before this one acted.
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
  readonly escalation_files?: EscalationFiles;
  readonly interrupted?: AuditEntry;
}

/**
 * What `runToCompletion()` reports: the session's status and last gap, how
 * many steps this call took, the escalation report when it escalated
 * (`wall_time` when the wall-time budget ran out between steps) and the
 * files it was written to, the last step's result, and the whole audit log.
 *
 * @public
 */
export interface FixLoopRunResult {
  readonly session_id: string;
  readonly status: FixSessionStatus;
  readonly steps_taken: number;
  readonly gap: GapModel | null;
  readonly escalation: EscalationReport | null;
  readonly escalation_files: EscalationFiles | null;
  readonly last_step: FixStepResult | null;
  readonly audit: readonly AuditEntry[];
}

/**
 * What `get()` reports: the session's record (every field of state.json:
 * status, gap, attempts, escalation, …), the last entries of its audit log
 * (oldest first) in `audit_tail`, and, once escalated, where the report's
 * files are in `escalation_files` (written right after the record; a crash
 * in between leaves them missing until the next `step()` or
 * `runToCompletion()` on the session writes them again).
 *
 * @public
 */
export type FixSessionView = FixSessionState & {
  readonly audit_tail: readonly AuditEntry[];
  readonly escalation_files: EscalationFiles | null;
};

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
    escalation_files: view.escalation_files,
    last_step: last,
    audit: view.audit_tail,
  };
}
