import type { GoalStatus } from '../contracts/goal-evaluation.js';

/** Every kind of signal a goal evaluation can raise. @public */
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
 * One reason the goal is not (yet) met: its kind, what raised it (a criterion id, `stage:<id>`, `feedback:criticals`,
 * …) and a clause that can open a sentence ("Criterion docs-lint failed (exit code 1)"). @public
 */
export interface DecisionSignal {
  readonly kind: SignalKind;
  readonly source: string;
  readonly message: string;
}

/** A status a signal can force: every goal status but PASS. @public */
export type SignalStatus = Exclude<GoalStatus, 'PASS'>;

/** When a judge criterion without a fresh verdict asks a human: `last` (default) once nothing else reruns, `first` at once. @public */
export type AskJudges = 'last' | 'first';

/** One rank of the decision precedence: the status it forces and the signal kinds that raise it. @public */
export interface PrecedenceRow {
  readonly status: SignalStatus;
  readonly signals: readonly SignalKind[];
}

const ASK_FIRST: readonly SignalKind[] = ['stage_awaiting_human', 'agent_stamp_ahead'];
const BLOCKS: readonly SignalKind[] = ['stage_blocked', 'judge_block', 'unremediable_critical', 'metrics_unreadable'];
const RETRIES: readonly SignalKind[] = [
  'path_refused',
  'criterion_failed',
  'criterion_pending',
  'stage_failed',
  'stage_pending',
  'critical_issue',
  'feedback_unreadable',
  'score_below_min',
];

/** THE decision precedence, strongest rank first, for each {@link AskJudges} order. @public */
export const DECISION_PRECEDENCE: Readonly<Record<AskJudges, readonly PrecedenceRow[]>> = Object.freeze({
  last: [
    { status: 'ASK_USER', signals: ASK_FIRST },
    { status: 'BLOCK', signals: BLOCKS },
    { status: 'RETRY', signals: RETRIES },
    { status: 'ASK_USER', signals: ['judge_pending'] },
  ],
  first: [
    { status: 'ASK_USER', signals: ['judge_pending', ...ASK_FIRST] },
    { status: 'BLOCK', signals: BLOCKS },
    { status: 'RETRY', signals: RETRIES },
  ],
});

/** The winning status and the signals that force it, in the order given. @public */
export interface StatusDecision {
  readonly status: GoalStatus;
  readonly decisive: readonly DecisionSignal[];
}

/** Picks the winning status from a list of signals: the first rank of {@link DECISION_PRECEDENCE} any signal belongs to. @public */
export function decideStatus(signals: readonly DecisionSignal[], askJudges: AskJudges = 'last'): StatusDecision {
  for (const row of DECISION_PRECEDENCE[askJudges]) {
    const decisive = signals.filter((signal) => row.signals.includes(signal.kind));
    if (decisive.length > 0) return { status: row.status, decisive };
  }
  return { status: 'PASS', decisive: [] };
}
