import { z } from 'zod';
import type { Issue } from '../../errors.js';
import { issuesFromZod } from '../../errors.js';
import { type GoalEvaluationSection, goalEvaluationSectionSchema } from './goal-evaluation.js';

// rstack-agents reads `can_auto_remediate` inside `remediation`; the issue-level flag is accepted too.
const remediationViewSchema = z.looseObject({
  agent_to_rerun: z.string().nullable().optional(),
  can_auto_remediate: z.boolean().optional(),
});

/** One issue of feedback.json as the loop reads it (severity, owner, auto-remediation). @public */
export const feedbackIssueViewSchema = z.looseObject({
  id: z.string().optional(),
  severity: z.string().optional(),
  category: z.string().optional(),
  description: z.string().optional(),
  can_auto_remediate: z.boolean().optional(),
  remediation: remediationViewSchema.nullable().optional(),
});

/**
 * The parts of feedback.json the goal loop reads: the summary counts, the
 * issues (for critical ones and who remediates them) and the
 * `goal_evaluation` section. Tolerant of every other field.
 *
 * @public
 */
export const feedbackViewSchema = z.looseObject({
  summary: z.looseObject({ critical_count: z.number().nullable().optional() }).optional(),
  issues: z.array(feedbackIssueViewSchema).default([]),
  goal_evaluation: goalEvaluationSectionSchema.nullable().optional(),
});

/** A feedback issue as the loop reads it. @public */
export type FeedbackIssueView = z.output<typeof feedbackIssueViewSchema>;

/** feedback.json as the loop reads it. @public */
export type FeedbackView = z.output<typeof feedbackViewSchema>;

/** The outcome of reading feedback.json for the loop. @public */
export type FeedbackRead =
  | { readonly state: 'missing' }
  | { readonly state: 'malformed'; readonly issues: readonly Issue[] }
  | { readonly state: 'present'; readonly report: FeedbackView; readonly raw: unknown };

/**
 * Reads parsed feedback.json content into the loop's view. Never throws. Pure.
 *
 * @public
 */
export function readFeedbackView(input: unknown): FeedbackRead {
  const parsed = feedbackViewSchema.safeParse(input);
  if (!parsed.success) return { state: 'malformed', issues: issuesFromZod(parsed.error) };
  return { state: 'present', report: parsed.data, raw: input };
}

export type { GoalEvaluationSection };
