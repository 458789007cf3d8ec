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

/**
 * What a human gets when a fix session escalates: the session, the goal,
 * how many attempts were made and the last gap measured, each attempt (its
 * action, candidate, outcome, gap before and after), the attempts whose
 * change the workspace still holds (and which of them made the gap worse),
 * the best manual
 * candidates not tried, the reason with the policy's sentence, and the
 * recommended next step in one sentence. Plain JSON; `renderEscalationMarkdown`
 * gives the readable form.
 *
 * @public
 */
export const escalationReportSchema = z.strictObject({
  session_id: z.string(),
  goal: z.string(),
  goal_type: z.string(),
  attempts_made: count,
  final_gap: gapModelSchema.nullable(),
  attempts_summary: z.array(attemptSummarySchema),
  top_remaining_candidates: z.array(fixCandidateRecordSchema),
  /**
   * The indexes (from 0, as `attempts_summary[].index`; escalation.md numbers them from 1) of the attempts whose
   * change is, or may be, in the workspace, in order: those applied and kept (not reverted), and those cut off
   * (interrupted), which may have been applied before they were.
   */
  applied_attempts: z.array(count),
  /** Of those, the ones after which the gap was larger than before. */
  worsening_attempts: z.array(count),
  escalation_reason: escalationReasonSchema,
  detail: z.string(),
  recommended_next_step: z.string().min(1),
});

/** The report of an escalated fix session. @public */
export type EscalationReport = z.infer<typeof escalationReportSchema>;
