import { z } from 'zod';
import type { FileSystem } from './file-system.js';

/** How a stage run ended, as a stage runner reports it and as `stage_completed` events record it. @public */
export const stageOutcomeStatusSchema = z.enum(['passed', 'failed', 'blocked', 'needs_context', 'awaiting_approval']);

/** How a stage run ended. @public */
export type StageOutcomeStatus = z.infer<typeof stageOutcomeStatusSchema>;

/** What a stage runner reports for one run of one stage. @public */
export interface StageOutcome {
  /** How the run ended. */
  readonly status: StageOutcomeStatus;
  /** What this run cost, in USD (added to the run's spend). */
  readonly costUsd?: number;
  /** One human sentence. */
  readonly detail?: string;
  /** Paths (relative to the project root) of the artifacts it wrote. */
  readonly artifacts?: readonly string[];
}

/**
 * Why a stage is being run: the first pass, a RETRY naming it (with the evaluation's reason and the criteria that were
 * not met), or an iteration resumed after a crash or an abort (with the retry it belonged to, if any). @public
 */
export type StageRunReason =
  | { readonly kind: 'initial' }
  | { readonly kind: 'retry'; readonly reason: string; readonly criteria: readonly string[] }
  | { readonly kind: 'resume'; readonly retry?: { readonly reason: string; readonly criteria: readonly string[] } };

/** What a stage runner receives with each call, whatever drives the stages. @public */
export interface StageContextOf<TEvaluation = unknown> {
  /** The run directory, relative to the filesystem root. */
  readonly runDir: string;
  /** The run-wide iteration this run belongs to. */
  readonly iteration: number;
  /** Why the stage runs now (first pass, a RETRY naming it, a resumed iteration). */
  readonly reason: StageRunReason;
  /** The last evaluation of this run, if any. */
  readonly previousEvaluation: TEvaluation | null;
  /** The driver's filesystem, rooted at the project root. */
  readonly fs: FileSystem;
  /** Fires when the driver is aborted; pass it on to whatever the stage starts. */
  readonly signal: AbortSignal;
}

/** The stage port, whatever drives the stages: the host's code that actually runs a stage (calls an agent, a model, a script). @public */
export interface StageRunnerOf<TEvaluation = unknown> {
  /** Runs one stage and reports how it ended; a non-passing stage is an outcome, not a throw. */
  run(stageId: string, context: StageContextOf<TEvaluation>): Promise<StageOutcome>;
}
