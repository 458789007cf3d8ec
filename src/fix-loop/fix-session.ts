import { GoalLoopError } from '../errors.js';
import type { OutboxCommit } from '../persist/outbox.js';
import type { AuditEntry } from './contracts/audit.js';
import type { FixCandidate } from './contracts/candidate.js';
import type { EscalationReason, FixAction, PolicyDecision } from './contracts/decision.js';
import type { FixSessionState } from './contracts/session.js';
import { buildEscalationReport } from './core/escalation.js';
import { decideNextAction } from './core/policy.js';
import type { StepContext } from './host-calls.js';
import { type Acted, actOn } from './session-actions.js';
import type { SessionPaths } from './session-files.js';
import { type FixStepResult, isTerminal } from './step-result.js';

/** Everything a session works with. @internal */
export interface SessionDeps extends StepContext {
  readonly paths: SessionPaths;
  readonly commit: OutboxCommit<FixSessionState, AuditEntry>;
}

/**
 * One fix session, driven by the pure policy: each step records the step in
 * progress before acting (and an iteration's candidate among the tried ones
 * before the applier is called), carries out the action the policy decided,
 * asks the policy whether the session is now over, and commits the new record
 * with the step's audit line (state first, then the line, exactly once). A
 * step found in progress when the session is opened was cut off: it gets an
 * `interrupted` audit line, its candidate stays tried, and the gap is
 * measured again.
 *
 * @internal
 */
export class FixSession {
  private constructor(
    private readonly deps: SessionDeps,
    private state: FixSessionState,
  ) {}

  /** Loads the session's record, delivering a pending outbox; `SESSION_NOT_FOUND` when there is none. */
  static async open(deps: SessionDeps, sessionId: string): Promise<FixSession> {
    const saved = await deps.commit.store.load();
    if (saved === null)
      throw new GoalLoopError('SESSION_NOT_FOUND', `No fix session "${sessionId}" (looked for ${deps.paths.state}).`);
    await deps.commit.deliver(saved);
    return new FixSession(deps, saved);
  }

  /** Takes one step: sense, decide, act, observe. `SESSION_ENDED` on a converged or escalated session. */
  async step(): Promise<FixStepResult> {
    this.refuseEnded();
    const started = this.deps.clock.now();
    const interrupted = await this.closeInterrupted();
    const decision = decideNextAction(this.state);
    const result =
      decision.action === 'converged' || decision.action === 'escalate'
        ? await this.finish(decision, started)
        : await this.act(decision, started);
    return interrupted === undefined ? result : { ...result, interrupted };
  }

  // Marks the step in progress, carries out the action, and observes where the session stands.
  private async act(decision: PolicyDecision, started: number): Promise<FixStepResult> {
    const gapBefore = this.state.gap?.gap ?? null;
    const action = decision.action;
    const index = this.state.step_count;
    await this.save({ ...this.state, status: 'running', step_in_progress: { step_index: index, action } });
    const acted = await actOn(action, this.state, this.deps, (state) => this.save(state));
    return this.observe(decision, acted, started, gapBefore);
  }

  /** Escalates the session without acting (the wall time of `runToCompletion` spent), as one step. */
  async escalate(reason: EscalationReason, rationale: string): Promise<FixStepResult> {
    this.refuseEnded();
    const started = this.deps.clock.now();
    const interrupted = await this.closeInterrupted();
    const result = await this.finish({ action: 'escalate', reason, rationale, confidence: 1 }, started);
    return interrupted === undefined ? result : { ...result, interrupted };
  }

  private refuseEnded(): void {
    const { status, session_id: id } = this.state;
    if (isTerminal(status))
      throw new GoalLoopError('SESSION_ENDED', `Fix session "${id}" already ${status}; start a new session to go on.`);
  }

  // Records a step cut off by a crash or an abort: its audit line, no gap (measured again), its candidate kept tried.
  private async closeInterrupted(): Promise<AuditEntry | undefined> {
    const cut = this.state.step_in_progress;
    if (cut === null) return undefined;
    const entry: AuditEntry = {
      seq: cut.step_index,
      step_index: cut.step_index,
      action_type: cut.action,
      action_description: `Step ${cut.step_index} (${cut.action}) was cut off before it finished; ${cut.candidate_hash === undefined ? '' : 'its candidate stays tried (never applied twice), and '}the gap is measured again.`,
      candidate_applied: null,
      gap_before: this.state.gap?.gap ?? null,
      gap_after: null,
      session_status_after: 'running',
      duration_ms: 0,
      interrupted: true,
    };
    this.state = await this.deps.commit.commit({
      ...this.state,
      status: 'running',
      gap: null,
      step_in_progress: null,
      step_count: cut.step_index + 1,
      outbox: [entry],
      updated_at: this.now(),
    });
    return entry;
  }

  // After acting: the session ends when the action escalated or the policy now says converged or escalate.
  private async observe(
    decision: PolicyDecision,
    acted: Acted,
    started: number,
    gapBefore: number | null,
  ): Promise<FixStepResult> {
    const next = acted.escalate === undefined ? decideNextAction(acted.state) : null;
    const reason = acted.escalate?.reason ?? (next?.action === 'escalate' ? next.reason : undefined);
    const detail = acted.escalate?.detail ?? next?.rationale ?? '';
    const status = reason !== undefined ? 'escalated' : next?.action === 'converged' ? 'converged' : 'running';
    const escalation = reason === undefined ? null : buildEscalationReport(acted.state, reason, acted.manual, detail);
    return this.commitStep(acted.state, {
      action: decision.action,
      rationale: decision.rationale,
      description: acted.description,
      candidateApplied: acted.applied,
      status,
      escalation,
      started,
      gapBefore,
      candidates: acted.candidates,
      attempt: acted.attempt,
    });
  }

  // Ends the session on a decision taken before acting (converged, or escalate).
  private finish(decision: PolicyDecision, started: number): Promise<FixStepResult> {
    const escalation =
      decision.reason === undefined ? null : buildEscalationReport(this.state, decision.reason, [], decision.rationale);
    return this.commitStep(this.state, {
      action: decision.action,
      rationale: decision.rationale,
      description: decision.rationale,
      candidateApplied: null,
      status: escalation === null ? 'converged' : 'escalated',
      escalation,
      started,
      gapBefore: this.state.gap?.gap ?? null,
    });
  }

  // Commits the step: the record with the step done, and its audit line in the outbox (appended right after).
  private async commitStep(
    draft: FixSessionState,
    step: {
      action: FixAction;
      rationale: string;
      description: string;
      candidateApplied: string | null;
      status: FixStepResult['status'];
      escalation: FixStepResult['escalation'] | null;
      started: number;
      gapBefore: number | null;
      candidates?: readonly FixCandidate[] | undefined;
      attempt?: FixStepResult['attempt'] | undefined;
    },
  ): Promise<FixStepResult> {
    const index = this.state.step_count;
    const entry: AuditEntry = {
      seq: index,
      step_index: index,
      action_type: step.action,
      action_description: step.description,
      candidate_applied: step.candidateApplied,
      gap_before: step.gapBefore,
      gap_after: draft.gap?.gap ?? null,
      session_status_after: step.status,
      duration_ms: Math.max(0, this.deps.clock.now() - step.started),
    };
    const escalation = step.escalation ?? null;
    this.state = await this.deps.commit.commit({
      ...draft,
      status: step.status,
      escalation,
      step_in_progress: null,
      step_count: index + 1,
      outbox: [entry],
      updated_at: this.now(),
    });
    return {
      session_id: this.state.session_id,
      step_index: index,
      action: step.action,
      status: step.status,
      rationale: step.rationale,
      description: step.description,
      gap: this.state.gap,
      ...(step.candidates === undefined ? {} : { candidates: step.candidates }),
      ...(step.attempt === undefined ? {} : { attempt: step.attempt }),
      ...(escalation === null ? {} : { escalation }),
    };
  }

  // Writes the record without an audit line (the step in progress), fenced like every write.
  private async save(state: FixSessionState): Promise<FixSessionState> {
    this.state = await this.deps.commit.commit({ ...state, outbox: [], updated_at: this.now() });
    return this.state;
  }

  private now(): string {
    return new Date(this.deps.clock.now()).toISOString();
  }
}
