import { z } from 'zod';

/**
 * How a stage run ended, as a stage runner reports it and as
 * `stage_completed` events record it.
 *
 * @public
 */
export const stageOutcomeStatusSchema = z.enum(['passed', 'failed', 'blocked', 'needs_context', 'awaiting_approval']);

/** How a stage run ended. @public */
export type StageOutcomeStatus = z.infer<typeof stageOutcomeStatusSchema>;

/**
 * The status of a stage in a run: an outcome, or `pending` (not run, or reset
 * for a rerun, in the current iteration).
 *
 * @public
 */
export const stageStatusSchema = z.enum(['pending', ...stageOutcomeStatusSchema.options]);

/** The status of one pipeline stage in a run. @public */
export type StageStatus = z.infer<typeof stageStatusSchema>;
