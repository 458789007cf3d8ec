import { z } from 'zod';
import { stageOutcomeStatusSchema } from '../ports/stage-runner.js';

// The outcomes a stage runner reports are the port's; the taxonomy adds `pending` to them.
export { stageOutcomeStatusSchema };

/** The status of a stage in a run: an outcome, or `pending` (not run, or reset for a rerun, in the current iteration). @public */
export const stageStatusSchema = z.enum(['pending', ...stageOutcomeStatusSchema.options]);

/** The status of one pipeline stage in a run. @public */
export type StageStatus = z.infer<typeof stageStatusSchema>;
