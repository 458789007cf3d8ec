import { z } from 'zod';
import { fixActionSchema } from './decision.js';

const count = z.number().int().nonnegative();

/** Where a fix session stands. @public */
export const fixSessionStatusSchema = z.enum(['pending', 'running', 'converged', 'escalated']);

/** Where a fix session stands. @public */
export type FixSessionStatus = z.infer<typeof fixSessionStatusSchema>;

/** One line of a session's `audit.jsonl`, appended per step before `step()` returns. @public */
export const auditEntrySchema = z.strictObject({
  seq: count,
  step_index: count,
  action_type: fixActionSchema,
  action_description: z.string(),
  candidate_applied: z.string().nullable(),
  gap_before: count.nullable(),
  gap_after: count.nullable(),
  session_status_after: fixSessionStatusSchema,
  duration_ms: z.number().nonnegative(),
  workspace_holds: z.array(count).optional(),
  interrupted: z.boolean().optional(),
});

/** One line of a session's audit log. @public */
export type AuditEntry = z.infer<typeof auditEntrySchema>;
