import { GoalLoopError } from '../errors.js';
import { throwIfAborted } from '../runtime/host-call.js';
import type { OutboxCommit } from '../runtime/outbox.js';
import type { AuditEntry } from './contracts/audit.js';
import type { EscalationReason } from './contracts/decision.js';
import type { FixSessionState } from './contracts/session.js';
import { type FixInput, transition } from './core/machine.js';
import { type EscalationFiles, escalationFilesMissing, writeEscalationFiles } from './escalation-files.js';
import type { StepContext } from './host-calls.js';
import { actOn } from './session-actions.js';
import { type SessionPaths, sessionNotFound } from './session-files.js';
import { type FixStepResult, isTerminal, stepResult } from './step-result.js';

/** Everything a session works with. @internal */
export interface SessionDeps extends StepContext {
  readonly paths: SessionPaths;
  readonly commit: OutboxCommit<FixSessionState, AuditEntry>;
  /** The lock's fencing check, before a write outside the commit (the escalation report files). */
  readonly fence: () => Promise<void>;
}

type Escalation = { readonly reason: EscalationReason; readonly rationale: string };

/** One fix session, driven by the pure {@link transition}: observe, transition, commit, act. @internal */
export class FixSession {
  private constructor(
    private readonly deps: SessionDeps,
    private state: FixSessionState,
  ) {}

  /** Loads the session's record, delivering a pending outbox and writing report files a crash left unwritten. */
  static async open(deps: SessionDeps, sessionId: string): Promise<FixSession> {
    const saved = await deps.commit.store.load();
    if (saved === null) throw sessionNotFound(sessionId, deps.paths.state);
    await deps.commit.deliver(saved);
    const session = new FixSession(deps, saved);
    if (await escalationFilesMissing(deps.fs, deps.paths, saved)) await session.writeReport();
    return session;
  }

  /** Takes one step: sense, decide, act, observe. `SESSION_ENDED` on a converged or escalated session. */
  step(): Promise<FixStepResult> {
    return this.drive(undefined);
  }

  /** Escalates the session without acting (the wall time of `runToCompletion` spent), as one step. */
  escalate(reason: EscalationReason, rationale: string): Promise<FixStepResult> {
    return this.drive({ reason, rationale });
  }

  private async drive(escalate: Escalation | undefined): Promise<FixStepResult> {
    const { status, session_id: id } = this.state;
    if (isTerminal(status))
      throw new GoalLoopError('SESSION_ENDED', `Fix session "${id}" already ${status}; start a new session to go on.`);
    throwIfAborted(this.deps.signal);
    const started = this.deps.clock.now();
    let interrupted: AuditEntry | undefined;
    let input: FixInput = this.observed(started, escalate);
    for (;;) {
      const step = transition(this.state, input);
      const { effect } = step;
      // An abort since the step began writes no step in progress: the next call would find it cut off.
      if (effect.kind === 'act') throwIfAborted(this.deps.signal);
      this.state = await this.deps.commit.commit(step.state);
      switch (effect.kind) {
        case 'step_again':
          interrupted = effect.interrupted;
          input = this.observed(started, escalate);
          break;
        case 'act': {
          const acted = await actOn(effect.decision.action, this.state, this.deps, (state) => this.save(state));
          input = {
            ...this.observed(started),
            type: 'acted',
            decision: effect.decision,
            gapBefore: effect.gapBefore,
            acted,
          };
          break;
        }
        case 'report': {
          // After the record: a crash before the report files leaves them to the next open.
          const result = stepResult(this.state, effect.index, effect.outcome, await this.writeReport());
          return interrupted === undefined ? result : { ...result, interrupted };
        }
      }
    }
  }

  private observed(started: number, escalate?: Escalation): FixInput & { type: 'step' } {
    const now = this.deps.clock.now();
    const input = { type: 'step' as const, ts: new Date(now).toISOString(), durationMs: now - started };
    return escalate === undefined ? input : { ...input, escalate };
  }

  // Writes the escalation report files of an escalated session (none otherwise).
  private async writeReport(): Promise<EscalationFiles | null> {
    const { escalation, status } = this.state;
    if (status !== 'escalated' || escalation === null) return null;
    return writeEscalationFiles(this.deps.fs, this.deps.paths, escalation, this.deps.fence);
  }

  // A durable point inside an action (a candidate marked tried before the applier runs), without an audit line.
  private async save(state: FixSessionState): Promise<FixSessionState> {
    const updated = new Date(this.deps.clock.now()).toISOString();
    this.state = await this.deps.commit.commit({ ...state, outbox: [], updated_at: updated });
    return this.state;
  }
}
