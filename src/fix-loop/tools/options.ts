import { z } from 'zod';
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
