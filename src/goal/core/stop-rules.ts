import type { StopReason } from '../contracts/stop-reason.js';
import type { GoalEvaluation } from './evaluate.js';
import { type clampMaxIterations, MAX_ITERATIONS_HARD_CAP } from './max-iterations.js';

/** The goal as a checkpoint sees it. @public */
export interface GoalFacts {
  /** The goal's hash differs from the one the session started under. */
  readonly changed: boolean;
  /** The host passed `acceptGoalChange: true`. */
  readonly accepted: boolean;
  /** The goal parsed; when false, `reason` says why. */
  readonly valid: boolean;
  readonly reason?: string;
}

/** What the loop knows at a checkpoint: before an iteration, after a stage, before and after the evaluation. @public */
export interface LoopFacts {
  /** The caller's signal has fired; `abortedAt` says where ("before stage 07-code"). */
  readonly aborted: boolean;
  readonly abortedAt?: string;
  /** USD spent by the run so far. */
  readonly spentUsd: number;
  /** The run's budget in USD; none when undefined. */
  readonly budgetUsd?: number | undefined;
  readonly goal?: GoalFacts;
  readonly evaluation?: Pick<GoalEvaluation, 'status' | 'reason' | 'recommendedRerunStages'>;
  /** Iterations run in this session, the one just evaluated included. */
  readonly iterationsInSession: number;
  /** The session's bound (see {@link clampMaxIterations}); never more than {@link MAX_ITERATIONS_HARD_CAP} applies. */
  readonly maxIterations: number;
  /** The `maxIterations` the host asked for, when the hard cap clamped it (the stop's reason says so). */
  readonly requestedMaxIterations?: number | undefined;
  /** This iteration's progress fingerprint, and the previous iteration's. */
  readonly fingerprint?: string;
  readonly previousFingerprint?: string | null | undefined;
}

/** The id of a stop rule. @public */
export type StopRuleId =
  | 'aborted'
  | 'budget'
  | 'goal_changed'
  | 'invalid_goal'
  | 'goal_met'
  | 'ask_user'
  | 'blocked'
  | 'evaluation_error'
  | 'max_iterations'
  | 'same_fingerprint'
  | 'nothing_to_rerun';

/** One row of {@link STOP_RULES}: when it applies, the stop it makes, and the sentence it gives. @public */
export interface StopRule {
  readonly id: StopRuleId;
  readonly stoppedOn: StopReason;
  readonly resumable: boolean;
  readonly applies: (facts: LoopFacts) => boolean;
  readonly reason: (facts: LoopFacts) => string;
}

/** Why a loop asks the user when goal.json changed mid-session. @public */
export const GOAL_CHANGED_REASON =
  'Goal changed since this session started; rerun with acceptGoalChange: true to continue under the new goal.';

// The iteration bound that applies: the hard cap holds whatever a caller passes.
const bound = (facts: LoopFacts): number => Math.min(facts.maxIterations, MAX_ITERATIONS_HARD_CAP);
// Says so when the hard cap clamped the bound the host asked for.
const clampNote = (facts: LoopFacts): string => {
  const asked = facts.requestedMaxIterations ?? facts.maxIterations;
  return asked > bound(facts)
    ? ` (maxIterations ${asked} is clamped to the hard cap of ${MAX_ITERATIONS_HARD_CAP})`
    : '';
};
const retrying = (facts: LoopFacts): boolean => facts.evaluation?.status === 'RETRY';
const status = (wanted: string) => (facts: LoopFacts) => facts.evaluation?.status === wanted;
const evaluationReason = (facts: LoopFacts): string => facts.evaluation?.reason ?? '';
const lastEvaluation = (facts: LoopFacts): string => `Last evaluation: ${evaluationReason(facts)}`;

/** Every way a loop stops, in precedence order: the first rule that applies decides. @public */
export const STOP_RULES: readonly StopRule[] = Object.freeze([
  {
    id: 'aborted',
    stoppedOn: 'aborted',
    resumable: true,
    applies: (facts) => facts.aborted,
    reason: (facts) => `Aborted by the caller ${facts.abortedAt ?? 'before the next iteration'}.`,
  },
  {
    id: 'budget',
    stoppedOn: 'budget_exhausted',
    resumable: false,
    applies: (facts) => facts.budgetUsd !== undefined && facts.spentUsd >= facts.budgetUsd,
    reason: (facts) => `The run has spent ${usd(facts.spentUsd)} of its ${usd(facts.budgetUsd ?? 0)} budget.`,
  },
  {
    id: 'goal_changed',
    stoppedOn: 'ask_user',
    resumable: true,
    applies: (facts) => facts.goal?.changed === true && !facts.goal.accepted,
    reason: () => GOAL_CHANGED_REASON,
  },
  {
    id: 'invalid_goal',
    stoppedOn: 'evaluation_error',
    resumable: false,
    applies: (facts) => facts.goal?.valid === false,
    reason: (facts) => facts.goal?.reason ?? 'The goal is invalid.',
  },
  { id: 'goal_met', stoppedOn: 'complete', resumable: false, applies: status('PASS'), reason: evaluationReason },
  { id: 'ask_user', stoppedOn: 'ask_user', resumable: false, applies: status('ASK_USER'), reason: evaluationReason },
  { id: 'blocked', stoppedOn: 'blocked', resumable: false, applies: status('BLOCK'), reason: evaluationReason },
  {
    id: 'evaluation_error',
    stoppedOn: 'evaluation_error',
    resumable: false,
    applies: status('ERROR'),
    reason: evaluationReason,
  },
  {
    id: 'max_iterations',
    stoppedOn: 'max_iterations',
    resumable: false,
    applies: (facts) => retrying(facts) && facts.iterationsInSession >= bound(facts),
    reason: (facts) =>
      `Reached ${bound(facts)} iteration(s) in this session without meeting the goal${clampNote(facts)}. ${lastEvaluation(facts)}`,
  },
  {
    id: 'same_fingerprint',
    stoppedOn: 'no_progress',
    resumable: false,
    applies: (facts) =>
      retrying(facts) &&
      facts.fingerprint !== undefined &&
      facts.previousFingerprint != null &&
      facts.fingerprint === facts.previousFingerprint,
    reason: (facts) =>
      `This iteration changed nothing since the previous one (same progress fingerprint). ${lastEvaluation(facts)}`,
  },
  {
    id: 'nothing_to_rerun',
    stoppedOn: 'no_progress',
    resumable: false,
    applies: (facts) => retrying(facts) && facts.evaluation?.recommendedRerunStages.length === 0,
    reason: (facts) => `The goal is not met and no stage is named to rerun. ${lastEvaluation(facts)}`,
  },
] satisfies StopRule[]);

// Formats a USD amount as the loop keeps it (to a billionth of a dollar), with at least two decimals: `2.00`, `0.015`, `1.999`.
function usd(amount: number): string {
  const [whole, fraction = ''] = amount.toFixed(9).replace(/0+$/, '').split('.');
  return `${whole}.${fraction.padEnd(2, '0')} USD`;
}
