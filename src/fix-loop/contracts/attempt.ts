import { z } from 'zod';
import { iterationActionSchema } from './decision.js';

const count = z.number().int().nonnegative();

/**
 * How an attempt ended: the fix was applied (and kept), applied and then
 * reverted because it did not lower the gap, refused by the applier (a patch
 * that does not apply), or cut off (a crash found on resume).
 *
 * @public
 */
export const attemptOutcomeSchema = z.enum(['applied', 'reverted', 'not_applied', 'interrupted']);

/** How an attempt ended. @public */
export type AttemptOutcome = z.infer<typeof attemptOutcomeSchema>;

/**
 * One attempt of a session: its position (from 0), the iteration that made
 * it, the candidate (description and hash), how it ended, the gap before
 * and after (`null` when it was not re-measured, as after an interruption)
 * and one sentence of detail (the applier's, or what cut the step off).
 *
 * @public
 */
export const fixAttemptSchema = z.strictObject({
  index: count,
  action: iterationActionSchema,
  candidate_description: z.string(),
  candidate_hash: z.string(),
  outcome: attemptOutcomeSchema,
  gap_before: count,
  gap_after: count.nullable(),
  detail: z.string(),
});

/** One attempt of a session. @public */
export type FixAttempt = z.infer<typeof fixAttemptSchema>;
