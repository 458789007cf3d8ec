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
 * What one `step()` did: index, action, status after, the policy's sentence, the gap, and as they apply the candidates,
 * attempt, escalation (with its files), an earlier step found cut off, and `needsFix`. Records are snake_case as
 * stored.
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
 * Options of one `step()`: the caller's `candidates`, used instead of the source's (checked alike; a malformed one is
 * `INVALID_OPTIONS`). Ignored by a step that needs no fix.
 *
 * @public
 */
export interface FixStepOptions {
  readonly candidates?: readonly FixCandidate[];
  /** Cancels this step, as {@link RunToCompletionOptions.signal} does a run. */
  readonly signal?: AbortSignal;
}

/**
 * What `runToCompletion()` reports: status, last gap, steps taken, the escalation and its files, the last step's result
 * and the whole audit log (snake_case as stored).
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
 * What `get()` reports: a camelCase summary, the escalation files (missing after a crash until the next call writes
 * them), the last audit entries (oldest first) and state.json as stored in `state`.
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

/** What `start()` returns: the id, status `pending`, and notes on clamped input with their JSON paths. @public */
export interface FixLoopStarted {
  readonly sessionId: string;
  readonly status: 'pending';
  readonly issues: readonly Issue[];
}

/** Options of `FixLoopOrchestrator.runToCompletion`. @public */
export interface RunToCompletionOptions {
  /** Escalate `wall_time` once this many ms have passed (default none); the running step is cut off as interrupted. */
  readonly maxWallMs?: number;
  /** Cancels this call: the running step is cut off (recorded as interrupted) and the call rejects. */
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
