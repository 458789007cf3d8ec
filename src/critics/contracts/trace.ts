import { z } from 'zod';
import { criticIssueSchema, criticVerdictSchema } from './decision.js';

/** Why an execution escalated. @public */
export const escalationReasonSchema = z.enum([
  'critic_escalated',
  'retry_budget',
  'spec_problem',
  'budget',
  'invalid_decision',
  'critic_failed',
  'generator_failed',
  'probation_review',
  'critic_revoked',
]);

/** Why an execution escalated. @public */
export type EscalationReason = z.infer<typeof escalationReasonSchema>;

/** What the pipeline did after a generator or critic call. @public */
export const routeActionSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('accept') }),
  z.strictObject({ kind: z.literal('retry') }),
  z.strictObject({ kind: z.literal('route_back'), to: z.string() }),
  z.strictObject({ kind: z.literal('accept_with_gaps') }),
  z.strictObject({ kind: z.literal('confirm') }),
  z.strictObject({ kind: z.literal('escalate'), reason: escalationReasonSchema, detail: z.string() }),
]);

/** What the pipeline did after a call. @public */
export type RouteAction = z.infer<typeof routeActionSchema>;

const common = {
  seq: z.number().int().nonnegative(),
  ts: z.string(),
};
const call = {
  ...common,
  stage: z.string(),
  attempt: z.number().int().positive(),
  costUsd: z.number().nonnegative(),
  durationMs: z.number().nonnegative(),
};

/**
 * One record of an execution's trace (`trace.jsonl`): a generator run, a critic decision (with what the pipeline did
 * about it), a late cost (what a generator or critic reported after the pipeline had stopped waiting for it: its time
 * limit, an abort, a lost lock; counted in the spend by the next `run()` or `step()`, even after the end), a pending
 * late cost file that cannot be read (reported once, never counted), or the end of the execution. @public
 */
export const traceRecordSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    ...call,
    kind: z.literal('generated'),
    outputHash: z.string().nullable(),
    error: z.string().optional(),
    action: routeActionSchema.nullable(),
  }),
  z.strictObject({
    ...call,
    kind: z.literal('judged'),
    decision: z.union([criticVerdictSchema, z.literal('invalid')]),
    issues: z.array(criticIssueSchema),
    routeTo: z.string().optional(),
    confidence: z.number().optional(),
    invalid: z.string().optional(),
    vetoed: z.boolean().optional(),
    /** The stage's second critic made this decision, confirming (or not) an accept of the critic on probation. */
    by: z.literal('second_critic').optional(),
    /** The critic's standing when it is not full: on probation its accepts are checked, revoked its decisions are not acted on. */
    standing: z.enum(['probation', 'revoked']).optional(),
    /** For an accept on probation: whether it was drawn for a check (the review rate, by a hash of the seed and the call). */
    sampled: z.boolean().optional(),
    action: routeActionSchema,
  }),
  z.strictObject({
    ...common,
    kind: z.literal('late_cost'),
    stage: z.string(),
    attempt: z.number().int().positive(),
    call: z.enum(['generate', 'judge']),
    costUsd: z.number().positive(),
    path: z.string(),
  }),
  z.strictObject({
    ...common,
    kind: z.literal('late_cost_unreadable'),
    path: z.string(),
    reason: z.string(),
  }),
  z.strictObject({
    ...common,
    kind: z.literal('finished'),
    status: z.enum(['completed', 'escalated']),
    reason: z.string(),
    escalation: escalationReasonSchema.nullable(),
  }),
]);

/** One record of an execution's trace. @public */
export type TraceRecord = z.infer<typeof traceRecordSchema>;

/** A trace record of a generator run. @public */
export type GeneratedRecord = Extract<TraceRecord, { kind: 'generated' }>;

/** A trace record of a critic decision. @public */
export type JudgedRecord = Extract<TraceRecord, { kind: 'judged' }>;

/** The trace record of a generator run or a critic decision (a late cost has a record of its own). @public */
export type CallRecord = Extract<TraceRecord, { kind: 'generated' | 'judged' }>;
