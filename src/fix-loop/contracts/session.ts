import { z } from 'zod';
import { fixAttemptSchema } from './attempt.js';
import { auditEntrySchema, fixSessionStatusSchema } from './audit.js';
import { fixCandidateRecordSchema } from './candidate.js';
import { fixActionSchema } from './decision.js';
import { escalationReportSchema } from './escalation.js';
import { gapModelSchema } from './gap.js';
import { MAX_ATTEMPTS_CAP, testReportFileSchema } from './start.js';

/** How much of the last failing command's output a session keeps (its tail, in characters). @public */
export const MAX_FAILURE_OUTPUT_CHARS = 16_384;

const count = z.number().int().nonnegative();

/** The step a session was carrying out, written before it acts (found on resume: interrupted). @public */
export const stepInProgressSchema = z.strictObject({
  step_index: count,
  action: fixActionSchema,
  candidate_hash: z.string().optional(),
});

/** The step a session was carrying out. @public */
export type StepInProgress = z.infer<typeof stepInProgressSchema>;

/** A fix session's record (`state.json`, written atomically), with its audit entries' outbox. @public */
export const fixSessionStateSchema = z.strictObject({
  schema_version: z.literal(1),
  session_id: z.string().min(1),
  goal: z.string(),
  goal_type: z.string(),
  workspace: z.string(),
  build_command: z.string().optional(),
  test_command: z.string().optional(),
  test_report: testReportFileSchema.optional(),
  max_attempts: z.number().int().min(1).max(MAX_ATTEMPTS_CAP),
  status: fixSessionStatusSchema,
  environment_verified: z.boolean(),
  gap: gapModelSchema.nullable(),
  last_failure_output: z.string().max(MAX_FAILURE_OUTPUT_CHARS),
  attempts: z.array(fixAttemptSchema),
  tried: z.array(z.string()),
  manual_candidates: z.array(fixCandidateRecordSchema).default([]),
  step_count: count,
  step_in_progress: stepInProgressSchema.nullable(),
  escalation: escalationReportSchema.nullable(),
  outbox: z.array(auditEntrySchema),
  created_at: z.string(),
  updated_at: z.string(),
});

/** A fix session's record. @public */
export type FixSessionState = z.infer<typeof fixSessionStateSchema>;
