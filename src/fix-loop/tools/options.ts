import { z } from 'zod';
import { refuseInvalidOptions } from '../../errors.js';
import type { FixLoopOrchestrator } from '../fix-loop-orchestrator.js';

/**
 * What the fix-loop tools call: a {@link FixLoopOrchestrator}, or anything with its four methods.
 *
 * @public
 */
export type FixLoopToolsOrchestrator = Pick<FixLoopOrchestrator, 'start' | 'step' | 'runToCompletion' | 'get'>;

/**
 * Options of {@link createFixLoopTools}.
 *
 * @public
 */
export interface FixLoopToolsOptions {
  /**
   * The wall time of a `run_feedback_loop` call that names none, and the most one may ask for, in seconds (default:
   * none — the session's attempt bound alone ends the run). A host whose client times requests out sets it below
   * that timeout.
   */
  readonly maxWallSeconds?: number;
}

/** The `session_id` field of the fix-loop tools: the id `start_feedback_loop` returned. @internal */
export const sessionIdInput = z.string().min(1).describe('The fix session id start_feedback_loop returned.');

// Every option has an entry (checked against FixLoopToolsOptions), so a key outside it is a misspelling.
const optionShape = {
  maxWallSeconds: z
    .number()
    .refine((seconds) => Number.isFinite(seconds) && seconds > 0, { message: 'must be a positive number' })
    .optional(),
} satisfies Record<keyof FixLoopToolsOptions, z.ZodType>;

/**
 * Refuses options the fix-loop tools cannot work with: `INVALID_OPTIONS` listing every issue with its path, an
 * unknown key (with the known key it most likely misspells) included. @internal
 */
export function validateFixLoopToolsOptions(options: FixLoopToolsOptions): void {
  refuseInvalidOptions('createFixLoopTools', optionShape, options);
}

/** The `escalation_files` field of the fix-loop tools' outputs: where an escalated session's report lies. @internal */
export const escalationFilesOutput = z
  .strictObject({ json: z.string(), markdown: z.string() })
  .describe(
    'Where the escalation report was written, relative to the project root: escalation.json and escalation.md.',
  );
