import { z } from 'zod';

/**
 * What the policy can decide: probe the environment, measure the gap, run a
 * build or a test iteration (propose, select and apply a fix, re-measure),
 * declare convergence, or escalate to a human.
 *
 * @public
 */
export const fixActionSchema = z.enum([
  'probe',
  'measure',
  'build_iteration',
  'test_iteration',
  'converged',
  'escalate',
]);

/** One of the policy's actions. @public */
export type FixAction = z.infer<typeof fixActionSchema>;

/** The two actions that apply a fix and so count as an attempt. @public */
export const iterationActionSchema = z.enum(['build_iteration', 'test_iteration']);

/** An action that applies a fix. @public */
export type IterationAction = z.infer<typeof iterationActionSchema>;

/**
 * Why a fix session escalated: the attempt bound, a gap growing or standing
 * still two attempts in a row, no automatic candidate left, a manual
 * candidate on top, a missing requirement of the environment (a setup script
 * a human must run), the wall time of `runToCompletion` spent, or an attempt
 * that did not help and could not be reverted.
 *
 * @public
 */
export const escalationReasonSchema = z.enum([
  'max_attempts',
  'worsening_trend',
  'all_auto_tried',
  'manual_required',
  'infra_gap',
  'no_progress',
  'wall_time',
  'revert_failed',
]);

/** Why a fix session escalated. @public */
export type EscalationReason = z.infer<typeof escalationReasonSchema>;

/**
 * One decision of the policy: the action, the escalation reason (present
 * exactly when the action is `escalate`), one sentence saying why, and the
 * policy's confidence in [0, 1].
 *
 * @public
 */
export const policyDecisionSchema = z
  .strictObject({
    action: fixActionSchema,
    reason: escalationReasonSchema.optional(),
    rationale: z.string().min(1),
    confidence: z.number().min(0).max(1),
  })
  .refine((decision) => (decision.action === 'escalate') === (decision.reason !== undefined), {
    message: 'reason is required when the action is escalate, and only then',
    path: ['reason'],
  });

/** One decision of the policy. @public */
export type PolicyDecision = z.infer<typeof policyDecisionSchema>;
