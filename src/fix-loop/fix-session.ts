import { GoalLoopError } from '../errors.js';
import { throwIfAborted } from '../runtime/host-call.js';
import type { OutboxCommit } from '../runtime/outbox.js';
import type { AuditEntry } from './contracts/audit.js';
import type { EscalationReason, PolicyDecision } from './contracts/decision.js';
import type { FixSessionState } from './contracts/session.js';
import { decideNextAction } from './core/policy.js';
import { type EscalationFiles, escalationFilesMissing, writeEscalationFiles } from './escalation-files.js';
import type { StepContext } from './host-calls.js';
import { actOn } from './session-actions.js';
import { type SessionPaths, sessionNotFound } from './session-files.js';
import {
  interruptedEntry,
  outcomeAfterAction,
  outcomeWithoutAction,
  type StepOutcome,
  stepEntry,
  stepResult,
} from './step-outcome.js';
import { type FixStepResult, isTerminal } from './step-result.js';

/** Everything a session works with. @internal */
export interface SessionDeps extends StepContext {
  readonly paths: SessionPaths;
  readonly commit: OutboxCommit<FixSessionState, AuditEntry>;
  /** The lock's fencing check, before a write outside the commit (the escalation report files). */
  readonly fence: () => Promise<void>;
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

  /**
   * Loads the session's record, delivering a pending outbox and writing the
   * escalation report files a crash left unwritten; `SESSION_NOT_FOUND` when
   * there is none.
   */
  static async open(deps: SessionDeps, sessionId: string): Promise<FixSession> {
    const saved = await deps.commit.store.load();
    if (saved === null) throw sessionNotFound(sessionId, deps.paths.state);
    await deps.commit.deliver(saved);
    const session = new FixSession(deps, saved);
    if (await escalationFilesMissing(deps.fs, deps.paths, saved)) await session.writeReport();
    return session;
  }

  /** Takes one step: sense, decide, act, observe. `SESSION_ENDED` on a converged or escalated session. */
  async step(): Promise<FixStepResult> {
    this.refuseEnded();
    throwIfAborted(this.deps.signal);
    const started = this.deps.clock.now();
    const interrupted = await this.closeInterrupted();
    const decision = decideNextAction(this.state);
    const result =
      decision.action === 'converged' || decision.action === 'escalate'
        ? await this.commitStep(outcomeWithoutAction(this.state, decision), started)
        : await this.act(decision, started);
    return interrupted === undefined ? result : { ...result, interrupted };
  }

  // Marks the step in progress, carries out the action, and observes where the session stands.
  private async act(decision: PolicyDecision, started: number): Promise<FixStepResult> {
    const gapBefore = this.state.gap?.gap ?? null;
    const action = decision.action;
    const index = this.state.step_count;
    // An abort since the step began writes no step in progress: the next call would find it cut off.
    throwIfAborted(this.deps.signal);
    await this.save({ ...this.state, status: 'running', step_in_progress: { step_index: index, action } });
    const acted = await actOn(action, this.state, this.deps, (state) => this.save(state));
    return this.commitStep(outcomeAfterAction(decision, acted, gapBefore), started);
  }

  /** Escalates the session without acting (the wall time of `runToCompletion` spent), as one step. */
  async escalate(reason: EscalationReason, rationale: string): Promise<FixStepResult> {
    this.refuseEnded();
    throwIfAborted(this.deps.signal);
    const started = this.deps.clock.now();
    const interrupted = await this.closeInterrupted();
    const decision = { action: 'escalate' as const, reason, rationale, confidence: 1 };
    const result = await this.commitStep(outcomeWithoutAction(this.state, decision), started);
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
    const entry = interruptedEntry(cut, this.state.gap?.gap ?? null);
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

  // Commits the step: the record with the step done, and its audit line in the outbox (appended right after).
  private async commitStep(outcome: StepOutcome, started: number): Promise<FixStepResult> {
    const index = this.state.step_count;
    const entry = stepEntry(index, outcome, this.deps.clock.now() - started);
    this.state = await this.deps.commit.commit({
      ...outcome.state,
      status: outcome.status,
      escalation: outcome.escalation,
      step_in_progress: null,
      step_count: index + 1,
      outbox: [entry],
      updated_at: this.now(),
    });
    // After the record: a crash before these writes leaves them to the next open, which writes them from the record.
    return stepResult(this.state, index, outcome, await this.writeReport());
  }

  // Writes the escalation report files of an escalated session (none otherwise).
  private async writeReport(): Promise<EscalationFiles | null> {
    const { escalation, status } = this.state;
    if (status !== 'escalated' || escalation === null) return null;
    return writeEscalationFiles(this.deps.fs, this.deps.paths, escalation, this.deps.fence);
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
