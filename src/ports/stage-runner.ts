import type { GoalEvaluation } from '../goal/core/evaluate.js';
import type { StageOutcomeStatus } from '../pipeline/stage-status.js';
import type { FileSystem } from './file-system.js';

export type { StageOutcomeStatus };

/**
 * What a stage runner reports for one run of one stage.
 *
 * @public
 */
export interface StageOutcome {
  readonly status: StageOutcomeStatus;
  /** What this run cost, in USD (added to the run's spend). */
  readonly costUsd?: number;
  /** One human sentence. */
  readonly detail?: string;
  /** Paths (relative to the project root) of the artifacts it wrote. */
  readonly artifacts?: readonly string[];
}

/**
 * Why a stage is being run: the first pass, a RETRY naming it (with the
 * evaluation's reason and the criteria that were not met), or an iteration
 * resumed after a crash or an abort (with the retry it belonged to, if any).
 *
 * @public
 */
export type StageRunReason =
  | { readonly kind: 'initial' }
  | { readonly kind: 'retry'; readonly reason: string; readonly criteria: readonly string[] }
  | { readonly kind: 'resume'; readonly retry?: { readonly reason: string; readonly criteria: readonly string[] } };

/**
 * What a stage runner receives with each call.
 *
 * @public
 */
export interface StageContext {
  /** The run directory, relative to the filesystem root. */
  readonly runDir: string;
  /** The run-wide iteration this run belongs to. */
  readonly iteration: number;
  /** Why the stage runs now (first pass, a RETRY naming it, a resumed iteration). */
  readonly reason: StageRunReason;
  /** The last goal evaluation of this run, if any. */
  readonly previousEvaluation: GoalEvaluation | null;
  /** The loop's filesystem, rooted at the project root. */
  readonly fs: FileSystem;
  /** Fires when the loop is aborted; pass it on to whatever the stage starts. */
  readonly signal: AbortSignal;
}

/**
 * The stage port: the host's code that actually runs a stage (calls an agent,
 * a model, a script). The library never calls a model itself.
 *
 * @example
 * ```ts
 * const runner: StageRunner = {
 *   async run(stageId, context) {
 *     const ok = await myAgent.run(stageId, { signal: context.signal });
 *     return { status: ok ? 'passed' : 'failed', costUsd: 0.12 };
 *   },
 * };
 * ```
 * @public
 */
export interface StageRunner {
  run(stageId: string, context: StageContext): Promise<StageOutcome>;
}
