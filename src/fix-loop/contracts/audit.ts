import { z } from 'zod';
import { fixActionSchema } from './decision.js';

const count = z.number().int().nonnegative();

/**
 * Where a fix session stands: created and not stepped yet, stepping, or
 * finished (converged or escalated).
 *
 * @public
 */
export const fixSessionStatusSchema = z.enum(['pending', 'running', 'converged', 'escalated']);

/** Where a fix session stands. @public */
export type FixSessionStatus = z.infer<typeof fixSessionStatusSchema>;

/**
 * One line of a session's `audit.jsonl`, appended per step before `step()`
 * returns: its sequence number in the log (`seq`), the step's index, the
 * action and a sentence describing it, the candidate applied (its
 * description, or `null`), the gap before and after (`null` when not
 * measured), the session's status after the step, how long the step took,
 * `workspace_holds` (the indexes of the attempts whose change the workspace
 * holds after the step, absent in older logs), and `interrupted` for a step
 * cut off by a crash and found on resume.
 *
 * @public
 */
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
