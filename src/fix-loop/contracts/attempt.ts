import { z } from 'zod';
import { iterationActionSchema } from './decision.js';

const count = z.number().int().nonnegative();

/** How an attempt ended: applied (kept), reverted, not applied, or interrupted by a crash. @public */
export const attemptOutcomeSchema = z.enum(['applied', 'reverted', 'not_applied', 'interrupted']);

/** How an attempt ended. @public */
export type AttemptOutcome = z.infer<typeof attemptOutcomeSchema>;

/** One attempt of a session: candidate, outcome, gap before and after (`null` when not re-measured). @public */
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
