import type { StopReason } from './contracts/stop-reason.js';
import type { GoalEvaluation } from './core/evaluate.js';

/**
 * What `GoalLoop.run()` returns: plain, JSON-serialisable data.
 *
 * @public
 */
export interface LoopResult {
  /** Why the loop stopped. */
  readonly stoppedOn: StopReason;
  /** Iterations run in this session. */
  readonly iterations: number;
  /** The run-wide iteration counter (the latest iteration started in this run). */
  readonly iteration: number;
  /** The last goal evaluation, or `null` when none was made (an abort before the first evaluation). */
  readonly evaluation: GoalEvaluation | null;
  /** One human sentence. */
  readonly reason: string;
  /** USD spent in the run so far. */
  readonly spentUsd: number;
}

/**
 * What `GoalLoop.step()` returns: the loop result after exactly one
 * iteration; `done` is false (and `stoppedOn` null) when the loop would go on,
 * with `rerunStages` naming what the next step reruns.
 *
 * @public
 */
export type LoopStepResult =
  | (LoopResult & { readonly done: true })
  | (Omit<LoopResult, 'stoppedOn'> & {
      readonly done: false;
      readonly stoppedOn: null;
      readonly rerunStages: readonly string[];
    });
