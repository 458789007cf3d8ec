import type { GoalStatus } from '../contracts/goal-evaluation.js';

/**
 * Every kind of signal a goal evaluation can raise. Each maps to exactly one
 * status through {@link SIGNAL_STATUS}.
 *
 * @public
 */
export type SignalKind =
  | 'judge_pending'
  | 'stage_awaiting_human'
  | 'agent_stamp_ahead'
  | 'stage_blocked'
  | 'judge_block'
  | 'path_refused'
  | 'unremediable_critical'
  | 'criterion_failed'
  | 'criterion_pending'
  | 'stage_failed'
  | 'stage_pending'
  | 'critical_issue'
  | 'feedback_unreadable'
  | 'metrics_unreadable'
  | 'score_below_min';

/**
 * One reason the goal is not (yet) met: its kind, what raised it (a
 * criterion id, `stage:<id>`, `feedback:criticals`, …) and a clause that can
 * open a sentence ("Criterion docs-lint failed (exit code 1)").
 *
 * @public
 */
export interface DecisionSignal {
  readonly kind: SignalKind;
  readonly source: string;
  readonly message: string;
}

/** A status a signal can force: every goal status but PASS. @public */
export type SignalStatus = Exclude<GoalStatus, 'PASS'>;

/**
 * The decision precedence, strongest first:
 * ASK_USER \> BLOCK \> RETRY \> PASS. The only place it is written down.
 *
 * @public
 */
export const STATUS_PRECEDENCE: readonly GoalStatus[] = Object.freeze(['ASK_USER', 'BLOCK', 'RETRY', 'PASS'] as const);

/**
 * THE table: which status each signal kind forces.
 *
 * | status | signals |
 * |---|---|
 * | ASK_USER | a judge criterion PENDING, a stage awaiting a human (`needs_context`, `awaiting_approval`), an agent claim stamped ahead of the iteration |
 * | BLOCK | a blocked stage, a judge FAIL with `recommendation: "block"`, a critical issue nobody can remediate, a metrics.json the loop refuses to run on |
 * | RETRY | any other FAIL (a criterion path the containment rule refuses included: the no-progress stop ends the loop when no rerun changes it), a non-judge PENDING, a failed or pending stage, a critical issue, unreadable feedback, score below `min_score` |
 *
 * No signal at all means PASS.
 *
 * @public
 */
export const SIGNAL_STATUS: Readonly<Record<SignalKind, SignalStatus>> = Object.freeze({
  judge_pending: 'ASK_USER',
  stage_awaiting_human: 'ASK_USER',
  agent_stamp_ahead: 'ASK_USER',
  stage_blocked: 'BLOCK',
  judge_block: 'BLOCK',
  path_refused: 'RETRY',
  unremediable_critical: 'BLOCK',
  metrics_unreadable: 'BLOCK',
  criterion_failed: 'RETRY',
  criterion_pending: 'RETRY',
  stage_failed: 'RETRY',
  stage_pending: 'RETRY',
  critical_issue: 'RETRY',
  feedback_unreadable: 'RETRY',
  score_below_min: 'RETRY',
});

/** The winning status and the signals that force it, in the order given. @public */
export interface StatusDecision {
  readonly status: GoalStatus;
  readonly decisive: readonly DecisionSignal[];
}

/**
 * Picks the winning status from a list of signals by {@link STATUS_PRECEDENCE}
 * and {@link SIGNAL_STATUS}; PASS when there is none. Pure.
 *
 * @example
 * ```ts
 * decideStatus([
 *   { kind: 'criterion_failed', source: 'docs-lint', message: 'Criterion docs-lint failed' },
 *   { kind: 'stage_blocked', source: 'stage:07-code', message: 'Stage 07-code is blocked' },
 * ]).status; // 'BLOCK'
 * ```
 * @public
 */
export function decideStatus(signals: readonly DecisionSignal[]): StatusDecision {
  for (const status of STATUS_PRECEDENCE) {
    if (status === 'PASS') break;
    const decisive = signals.filter((signal) => SIGNAL_STATUS[signal.kind] === status);
    if (decisive.length > 0) return { status, decisive };
  }
  return { status: 'PASS', decisive: [] };
}
