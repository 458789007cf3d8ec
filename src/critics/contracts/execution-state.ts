import { z } from 'zod';
import { lateCostMemorySchema } from '../../kit/late-cost-memory.js';
import { criticIssueSchema, criticVerdictSchema } from './decision.js';
import { escalationReasonSchema, traceRecordSchema } from './trace.js';

/** Open issues a stage was accepted with once its retry budget was spent. @public */
export const gapSchema = z.strictObject({
  stage: z.string(),
  issues: z.array(criticIssueSchema),
});

/** Open issues a stage was accepted with. @public */
export type Gap = z.infer<typeof gapSchema>;

/** An earlier critic decision of the execution, as later critics see it (cascading). @public */
export const judgementSchema = z.strictObject({
  stage: z.string(),
  attempt: z.number().int().positive(),
  decision: z.union([criticVerdictSchema, z.literal('invalid')]),
  issues: z.array(criticIssueSchema),
  routeTo: z.string().optional(),
  confidence: z.number().optional(),
  /** Set when the stage's second critic made it (checking an accept of the critic on probation). */
  by: z.literal('second_critic').optional(),
});

/** An earlier critic decision of the execution. @public */
export type Judgement = z.infer<typeof judgementSchema>;

/** Why the next generator call runs. @internal */
const feedbackCauseSchema = z.strictObject({
  kind: z.enum(['initial', 'retry', 'route_back']),
  issues: z.array(criticIssueSchema),
  reason: z.string().nullable(),
});

/** Why the next generator call runs. @internal */
export type FeedbackCause = z.infer<typeof feedbackCauseSchema>;

const count = z.number().int().nonnegative();

/** An execution's record (`state.json`), written atomically. @internal */
export const executionStateSchema = z.strictObject({
  schema_version: z.literal(1),
  execution_id: z.string(),
  spec: z.json(),
  spec_hash: z.string(),
  status: z.enum(['running', 'completed', 'escalated']),
  escalation: escalationReasonSchema.nullable(),
  reason: z.string().nullable(),
  stage_index: count,
  // confirm: the accept of a critic on probation waits for the stage's second critic.
  phase: z.enum(['generate', 'judge', 'confirm']),
  pending: z.strictObject({ output: z.json(), output_hash: z.string() }).nullable(),
  cause: feedbackCauseSchema,
  // By stage id: the route-back cause owed to a stage after the current one, given to its next first call.
  rerun_causes: z.record(z.string(), feedbackCauseSchema).default({}),
  outputs: z.record(z.string(), z.json()),
  gaps: z.array(gapSchema),
  attempts: z.record(z.string(), count),
  retries: z.record(z.string(), count),
  backtracks: count,
  spent_usd: z.number().nonnegative(),
  // The pending late costs already counted (until their files are gone) and the damaged ones already reported.
  late_costs: lateCostMemorySchema.optional(),
  judgements: z.array(judgementSchema),
  next_seq: count,
  outbox: z.array(traceRecordSchema),
  updated_at: z.string(),
});

/** An execution's record. @internal */
export type ExecutionState = z.infer<typeof executionStateSchema>;
