import type { Issue } from '../../errors.js';
import type { StageOutcome, StageRunReason } from '../../ports/stage-runner.js';
import type { StopReason } from '../contracts/stop-reason.js';
import type { Transition } from './emit.js';
import type { GoalEvaluation } from './evaluate.js';

// The protocol between the loop's pure transition and its shell: what the shell observed, what it does next.

/** The goal as the shell loaded it: its id and hash, and its issues when it does not parse. @internal */
export interface GoalSnapshot {
  readonly goalId: string;
  readonly hash: string;
  readonly issues: readonly Issue[] | null;
}

/** What the shell observed, sent to the transition. Every input carries the abort flag, the spend and the time. @internal */
export type LoopInput = {
  readonly aborted: boolean;
  readonly spentUsd: number;
  readonly ts: string;
} & (
  | { readonly type: 'checkpoint'; readonly goal: GoalSnapshot }
  | {
      readonly type: 'stage_finished';
      readonly stage: string;
      /** The outcome, or `null` when the loop was aborted during the stage (with the cost the runner still reported). */
      readonly outcome: StageOutcome | null;
      readonly abortedCostUsd?: number;
      readonly durationMs: number;
    }
  | { readonly type: 'evaluated'; readonly evaluation: GoalEvaluation }
);

/** What the shell does next, as data. @internal */
export type LoopEffect =
  | { readonly kind: 'run_stage'; readonly stage: string; readonly reason: StageRunReason }
  /** Load the goal afresh and send a checkpoint: the evaluation never runs under a goal the session has not accepted. */
  | { readonly kind: 'load_goal' }
  /** Gather the facts and evaluate (pure), then send `evaluated`. */
  | { readonly kind: 'evaluate' }
  /** A RETRY was scheduled: the iteration is over (a `step()` returns here). */
  | { readonly kind: 'retry'; readonly stages: readonly string[]; readonly reason: string }
  | {
      readonly kind: 'stop';
      readonly stoppedOn: StopReason;
      readonly reason: string;
      /** An evaluation this step made (an invalid goal's error evaluation), for the result. */
      readonly evaluation?: GoalEvaluation;
    };

/** The loop's settings the transition reads. @internal */
export interface MachineConfig {
  readonly stages: readonly string[];
  readonly budgetUsd: number | undefined;
  readonly acceptGoalChange: boolean;
  /** The iteration this shell resumed mid-way, if any: its stages run with a `resume` reason. */
  readonly resumedIteration: number | null;
}

/** The next state, its events (in the state's outbox) and the effect to carry out. @internal */
export interface LoopStep extends Transition {
  readonly effect: LoopEffect;
  /** The evaluation this step records. */
  readonly evaluation?: GoalEvaluation;
}
