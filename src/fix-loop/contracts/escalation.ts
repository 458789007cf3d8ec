import { z } from 'zod';
import { attemptOutcomeSchema } from './attempt.js';
import { fixCandidateRecordSchema } from './candidate.js';
import { escalationReasonSchema, iterationActionSchema } from './decision.js';
import { gapModelSchema } from './gap.js';

const count = z.number().int().nonnegative();

/** One attempt as an escalation report shows it. @public */
export const attemptSummarySchema = z.strictObject({
  index: count,
  action: iterationActionSchema,
  candidate: z.string(),
  outcome: attemptOutcomeSchema,
  gap_before: count,
  gap_after: count.nullable(),
});

/** One attempt as an escalation report shows it. @public */
export type AttemptSummary = z.infer<typeof attemptSummarySchema>;

/** What a human gets when a fix session escalates (`renderEscalationMarkdown` gives the readable form). @public */
export const escalationReportSchema = z.strictObject({
  session_id: z.string(),
  goal: z.string(),
  goal_type: z.string(),
  attempts_made: count,
  final_gap: gapModelSchema.nullable(),
  attempts_summary: z.array(attemptSummarySchema),
  top_remaining_candidates: z.array(fixCandidateRecordSchema),
  /** Attempts whose change is, or may be, in the workspace (kept or interrupted), from 0. */
  applied_attempts: z.array(count),
  /** Of those, the ones after which the gap was larger than before. */
  worsening_attempts: z.array(count),
  escalation_reason: escalationReasonSchema,
  detail: z.string(),
  recommended_next_step: z.string().min(1),
});

/** The report of an escalated fix session. @public */
export type EscalationReport = z.infer<typeof escalationReportSchema>;
