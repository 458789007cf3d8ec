import type { ParseResult } from '../../errors.js';
import type { GoalEvaluation } from './evaluate.js';
import type { StopReason } from './stop-reason.js';

export type { StopReason } from './stop-reason.js';
export { EXIT_CODES, exitCodeFor, STOP_REASONS } from './stop-reason.js';

/** A decision to stop, with one human sentence. @public */
export interface StopDecision {
  readonly kind: 'stop';
  readonly stoppedOn: StopReason;
  readonly reason: string;
}

/** A decision to rerun exactly these stages (pipeline order), with one human sentence. @public */
export interface RetryDecision {
  readonly kind: 'retry';
  readonly stages: readonly string[];
  readonly reason: string;
}

/** What the loop does after an evaluation. @public */
export type LoopDecision = StopDecision | RetryDecision;

/** The input of {@link decideAfterEvaluation}. @public */
export interface DecideInput {
  readonly evaluation: Pick<GoalEvaluation, 'status' | 'reason' | 'recommendedRerunStages'>;
  /** USD spent by the run so far. */
  readonly spentUsd: number;
  /** The run's budget in USD; none when undefined. */
  readonly budgetUsd?: number | undefined;
  /** Iterations run in this session, the one just evaluated included. */
  readonly iterationsInSession: number;
  /** The session's bound (clamped to {@link MAX_ITERATIONS_HARD_CAP} here too). */
  readonly maxIterations: number;
  /** This iteration's progress fingerprint. */
  readonly fingerprint: string;
  /** The previous iteration's fingerprint, if any. */
  readonly previousFingerprint?: string | null | undefined;
}

/** The default bound on iterations per session. @public */
export const DEFAULT_MAX_ITERATIONS = 3;

/** The hard cap on iterations per session: no option can exceed it. @public */
export const MAX_ITERATIONS_HARD_CAP = 20;

/**
 * The loop decision, in this order: budget spent ≥ `budgetUsd`
 * → `budget_exhausted`; PASS → `complete`; ASK_USER → `ask_user`; BLOCK →
 * `blocked`; ERROR → `evaluation_error`; RETRY: iterations in this session ≥
 * `maxIterations` (never more than 20) → `max_iterations`; the fingerprint
 * equals the previous one → `no_progress`; nothing to rerun → `no_progress`;
 * otherwise retry the evaluation's rerun stages. Pure.
 *
 * @example
 * ```ts
 * const decision = decideAfterEvaluation({ evaluation, spentUsd: 1.2, budgetUsd: 5, iterationsInSession: 1, maxIterations: 3, fingerprint, previousFingerprint: null });
 * if (decision.kind === 'retry') resetStages(decision.stages);
 * ```
 * @public
 */
export function decideAfterEvaluation(input: DecideInput): LoopDecision {
  const budget = checkBudget(input.spentUsd, input.budgetUsd);
  if (budget !== null) return budget;
  const { evaluation } = input;
  const stop = (stoppedOn: StopReason, reason: string): StopDecision => ({ kind: 'stop', stoppedOn, reason });
  switch (evaluation.status) {
    case 'PASS':
      return stop('complete', evaluation.reason);
    case 'ASK_USER':
      return stop('ask_user', evaluation.reason);
    case 'BLOCK':
      return stop('blocked', evaluation.reason);
    case 'ERROR':
      return stop('evaluation_error', evaluation.reason);
    case 'RETRY': {
      const bound = Math.min(input.maxIterations, MAX_ITERATIONS_HARD_CAP);
      if (input.iterationsInSession >= bound) {
        return stop(
          'max_iterations',
          `Reached ${bound} iteration(s) in this session without meeting the goal. Last evaluation: ${evaluation.reason}`,
        );
      }
      if (
        input.previousFingerprint !== undefined &&
        input.previousFingerprint !== null &&
        input.fingerprint === input.previousFingerprint
      ) {
        return stop(
          'no_progress',
          `This iteration changed nothing since the previous one (same progress fingerprint). Last evaluation: ${evaluation.reason}`,
        );
      }
      if (evaluation.recommendedRerunStages.length === 0) {
        return stop(
          'no_progress',
          `The goal is not met and no stage is named to rerun. Last evaluation: ${evaluation.reason}`,
        );
      }
      return { kind: 'retry', stages: evaluation.recommendedRerunStages, reason: evaluation.reason };
    }
    default: {
      const unreachable: never = evaluation.status;
      throw new Error(`unknown evaluation status ${String(unreachable)}`);
    }
  }
}

/**
 * The budget brake: a `budget_exhausted` stop when `spentUsd` ≥ `budgetUsd`,
 * else `null` (always `null` without a budget). The loop calls it before each
 * iteration and after every stage, so a run overshoots its budget by at most
 * one stage's cost. Pure.
 *
 * @public
 */
export function checkBudget(spentUsd: number, budgetUsd?: number): StopDecision | null {
  if (budgetUsd === undefined || !(spentUsd >= budgetUsd)) return null;
  return {
    kind: 'stop',
    stoppedOn: 'budget_exhausted',
    reason: `The run has spent ${usd(spentUsd)} of its ${usd(budgetUsd)} budget.`,
  };
}

/**
 * Validates and clamps a `maxIterations` option: `undefined` gives
 * {@link DEFAULT_MAX_ITERATIONS} (3); an integer ≥ 1 is kept, but never above
 * {@link MAX_ITERATIONS_HARD_CAP} (20) — a larger value is clamped, with a
 * `clamped` issue saying so. Anything else (not a number, not an integer,
 * below 1) is NOT defaulted silently: the result is a failure with an
 * `invalid_max_iterations` issue, which a shell turns into a
 * `GoalLoopError('INVALID_OPTIONS')`. Never throws. Pure.
 *
 * @example
 * ```ts
 * clampMaxIterations(50); // { success: true, data: 20, issues: [{ code: 'clamped', … }] }
 * clampMaxIterations(0);  // { success: false, issues: [{ code: 'invalid_max_iterations', … }] }
 * ```
 * @public
 */
export function clampMaxIterations(value?: unknown): ParseResult<number> {
  const path = ['maxIterations'];
  if (value === undefined) return { success: true, data: DEFAULT_MAX_ITERATIONS, issues: [] };
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    const shown = typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? typeof value);
    return {
      success: false,
      issues: [
        {
          code: 'invalid_max_iterations',
          path,
          message: `maxIterations must be an integer from 1 to ${MAX_ITERATIONS_HARD_CAP}, got ${shown}`,
        },
      ],
    };
  }
  if (value > MAX_ITERATIONS_HARD_CAP) {
    return {
      success: true,
      data: MAX_ITERATIONS_HARD_CAP,
      issues: [
        {
          code: 'clamped',
          path,
          message: `maxIterations ${value} exceeds the hard cap; ${MAX_ITERATIONS_HARD_CAP} applies`,
        },
      ],
    };
  }
  return { success: true, data: value, issues: [] };
}

// Formats a USD amount: two decimals, more only for amounts below a cent.
function usd(amount: number): string {
  const digits = Math.abs(amount) > 0 && Math.abs(amount) < 0.01 ? 4 : 2;
  return `${amount.toFixed(digits)} USD`;
}
