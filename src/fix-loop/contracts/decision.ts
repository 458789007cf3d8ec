import { z } from 'zod';

/** What the fix policy can decide. @public */
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

/** Why a fix session escalated (see the policy table in docs/fix-loop.md). @public */
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

/** One decision of the policy: action, reason (exactly when escalating), rationale, confidence. @public */
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
