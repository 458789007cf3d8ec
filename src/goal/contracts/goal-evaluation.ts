import { z } from 'zod';
import { maintenanceCategorySchema } from './goal.js';

/** The decision statuses of a goal evaluation. @public */
export const goalStatusSchema = z.enum(['PASS', 'RETRY', 'ASK_USER', 'BLOCK']);

/** A goal evaluation's decision. @public */
export type GoalStatus = z.infer<typeof goalStatusSchema>;

/**
 * One criterion entry of feedback.json's `goal_evaluation.criteria[]`: the feedback stage's evidence-backed claim about
 * a criterion (the agent pool of the verdict protocol). @public
 */
export const agentCriterionEntrySchema = z.looseObject({
  criterion_id: z.string().min(1),
  result: z.enum(['met', 'not_met', 'unknown']),
  evidence: z.array(z.string()).default([]),
  reasoning: z.string().optional(),
  recommendation: z.enum(['retry', 'block']).optional(),
  recommended_rerun_stages: z.array(z.string().min(1)).default([]),
  maintenance_category: maintenanceCategorySchema.optional(),
  iteration: z.int().min(0).optional(),
});

/** A parsed agent criterion entry. @public */
export type AgentCriterionEntry = z.output<typeof agentCriterionEntrySchema>;

/** The `goal_evaluation` section of feedback.json (contract 1.1). @public */
export const goalEvaluationSectionSchema = z.looseObject({
  goal_id: z.string().optional(),
  iteration: z.int().min(0).nullable().optional(),
  status: goalStatusSchema.optional(),
  consistency_score: z.number().optional(),
  critical_count: z.number().optional(),
  failing_stages: z.array(z.string()).optional(),
  recommended_rerun_stages: z.array(z.string()).optional(),
  requires_human_decision: z.boolean().optional(),
  reason: z.string().optional(),
  criteria: z.array(z.unknown()).default([]),
});

/** A parsed `goal_evaluation` section. @public */
export type GoalEvaluationSection = z.output<typeof goalEvaluationSectionSchema>;
