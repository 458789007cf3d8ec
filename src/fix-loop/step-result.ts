import type { Issue } from '../errors.js';
import type { FixAttempt } from './contracts/attempt.js';
import type { AuditEntry, FixSessionStatus } from './contracts/audit.js';
import type { FixCandidate } from './contracts/candidate.js';
import type { FixAction } from './contracts/decision.js';
import type { EscalationReport } from './contracts/escalation.js';
import type { GapModel } from './contracts/gap.js';
import type { FixSessionState } from './contracts/session.js';
import { type FixNeeded, fixNeeded } from './core/fix-needed.js';
import type { StepOutcome } from './core/machine.js';
import type { EscalationFiles } from './escalation-files.js';

/**
 * What one `step()` did: the step's index and action, the session's status
 * after it, the policy's sentence and what the step did, the gap after it,
 * and, as they apply, the candidates proposed (well-formed ones, as the
 * source returned them), the attempt made, the escalation report with the
 * files it was written to (`escalation.json`, `escalation.md`), and the audit
 * line written for an earlier step found cut off (a crash) before this one
 * acted, and, when the next step is a build or test iteration, what a party
 * proposing fixes needs (`needsFix`). The records it carries (`gap`, `attempt`, `escalation`,
 * `interrupted`) are the session's on-disk records, snake_case as state.json,
 * escalation.json and audit.jsonl hold them.
 *
 * @public
 */
export interface FixStepResult {
  readonly sessionId: string;
  readonly stepIndex: number;
  readonly action: FixAction;
  readonly status: FixSessionStatus;
  readonly rationale: string;
  readonly description: string;
  readonly gap: GapModel | null;
  readonly candidates?: readonly FixCandidate[];
  readonly attempt?: FixAttempt;
  readonly escalation?: EscalationReport;
  readonly escalationFiles?: EscalationFiles;
  readonly interrupted?: AuditEntry;
  readonly needsFix?: FixNeeded;
}

/**
 * Options of one `step()`: `candidates` proposed by the caller for this step, used instead of asking the host's
 * candidate source (checked as the source's are; a malformed one is `INVALID_OPTIONS` naming its path,
 * `$.candidates[1].confidence`). Ignored by a step that needs no fix (a probe, a measurement).
 *
 * @public
 */
export interface FixStepOptions {
  readonly candidates?: readonly FixCandidate[];
  /** Cancels this step, as {@link RunToCompletionOptions.signal} does a run. */
  readonly signal?: AbortSignal;
}

/**
 * What `runToCompletion()` reports: the session's status and last gap, how
 * many steps this call took, the escalation report when it escalated
 * (`wall_time` when the wall-time budget ran out between steps) and the
 * files it was written to, the last step's result, and the whole audit log
 * (audit.jsonl's entries, snake_case as stored).
 *
 * @public
 */
export interface FixLoopRunResult {
  readonly sessionId: string;
  readonly status: FixSessionStatus;
  readonly stepsTaken: number;
  readonly gap: GapModel | null;
  readonly escalation: EscalationReport | null;
  readonly escalationFiles: EscalationFiles | null;
  readonly lastStep: FixStepResult | null;
  readonly audit: readonly AuditEntry[];
}

/**
 * What `get()` reports: a summary of the session in camelCase (its id,
 * status, goal and goal type, workspace, attempts made and allowed, the gap
 * last measured, the escalation report once escalated), where the report's
 * files are (`escalationFiles`: written right after the escalated record; a
 * crash in between leaves them missing until the next `step()` or
 * `runToCompletion()` on the session writes them again), the last entries
 * of its audit log (oldest first) in `auditTail`, and the whole record in
 * `state`: state.json as stored, with its snake_case fields (`step_count`,
 * `attempts`, `tried`, `manual_candidates`, …).
 *
 * @public
 */
export interface FixSessionView {
  readonly sessionId: string;
  readonly status: FixSessionStatus;
  readonly goal: string;
  readonly goalType: string;
  readonly workspace: string;
  readonly attemptsMade: number;
  readonly maxAttempts: number;
  readonly gap: GapModel | null;
  readonly escalation: EscalationReport | null;
  readonly escalationFiles: EscalationFiles | null;
  readonly auditTail: readonly AuditEntry[];
  readonly state: FixSessionState;
}

/**
 * What `start()` returns: the new session's id, its status (`pending`), and
 * notes on the input that did not stop it (a `maxAttempts` clamped to the
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
  /**
   * Stop once this many ms have passed, escalating the session `wall_time` (default: no limit); a step still
   * running then is cut off (its host calls and commands are stopped) and recorded as interrupted.
   */
  readonly maxWallMs?: number;
  /**
   * Cancels this call (a host's request given up): the step running is cut off (its commands and host calls
   * stopped, recorded as interrupted on the next call) and the call rejects with the signal's reason.
   */
  readonly signal?: AbortSignal;
}

/** True for a session that converged or escalated: it takes no more steps. @internal */
export function isTerminal(status: FixSessionStatus): boolean {
  return status === 'converged' || status === 'escalated';
}

/** What `runToCompletion()` reports, from the session as it ended and the steps this call took. Pure. @internal */
export function runResult(view: FixSessionView, steps: number, last: FixStepResult | null): FixLoopRunResult {
  return {
    sessionId: view.sessionId,
    status: view.status,
    stepsTaken: steps,
    gap: view.gap,
    escalation: view.escalation,
    escalationFiles: view.escalationFiles,
    lastStep: last,
    audit: view.auditTail,
  };
}

/** What `get()` reports, from the session's record, its audit tail and its report files. Pure. @internal */
export function sessionView(
  state: FixSessionState,
  auditTail: readonly AuditEntry[],
  escalationFiles: EscalationFiles | null,
): FixSessionView {
  return {
    sessionId: state.session_id,
    status: state.status,
    goal: state.goal,
    goalType: state.goal_type,
    workspace: state.workspace,
    attemptsMade: state.attempts.length,
    maxAttempts: state.max_attempts,
    gap: state.gap,
    escalation: state.escalation,
    escalationFiles,
    auditTail,
    state,
  };
}

/** What `step()` returns for step `index`, from the committed record and the report files written. @internal */
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
