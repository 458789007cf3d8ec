import { z } from 'zod';
import { stageOutcomeStatusSchema } from '../../pipeline/stage-status.js';
import { goalStatusSchema } from './goal-evaluation.js';
import { stopReasonSchema } from './stop-reason.js';

const base = {
  ts: z.string(),
  iteration: z.int().min(0),
  max_iterations: z.int().min(0),
  goal_id: z.string().min(1),
  /** Position in the run's log; lets a resumed loop append each event exactly once. */
  seq: z.int().min(0),
};

/** The schema of one events.jsonl line: the rstack-agents event types with their fields, plus this library's own. @public */
export const loopEventSchema = z.discriminatedUnion('type', [
  z.object({
    ...base,
    type: z.literal('loop_iteration_started'),
    stages: z.array(z.string()),
    session_iteration: z.int().min(1).optional(),
  }),
  z.object({ ...base, type: z.literal('stage_started'), stage: z.string() }),
  z.object({
    ...base,
    type: z.literal('stage_completed'),
    stage: z.string(),
    status: stageOutcomeStatusSchema,
    cost_usd: z.number(),
    duration_ms: z.number(),
    detail: z.string().optional(),
  }),
  z.object({
    ...base,
    type: z.literal('goal_evaluated'),
    status: z.union([goalStatusSchema, z.literal('ERROR')]),
    score: z.number(),
    critical_count: z.number(),
    failing_stages: z.array(z.string()),
    recommended_rerun_stages: z.array(z.string()),
    reason: z.string(),
  }),
  z.object({
    ...base,
    type: z.literal('loop_iteration_retrying_stages'),
    stages: z.array(z.string()),
    reason: z.string(),
  }),
  z.object({ ...base, type: z.literal('loop_completed'), score: z.number(), reason: z.string() }),
  z.object({ ...base, type: z.literal('loop_blocked'), stopped_on: stopReasonSchema, reason: z.string() }),
  z.object({ ...base, type: z.literal('loop_resumed'), phase: z.string(), pending_stages: z.array(z.string()) }),
  z.object({
    ...base,
    type: z.literal('goal_changed'),
    previous_hash: z.string(),
    current_hash: z.string(),
    accepted: z.boolean(),
  }),
  z.object({
    ...base,
    type: z.literal('lock_taken_over'),
    previous_owner: z.string(),
    heartbeat_age_ms: z.number(),
    /** Why the lock was stale. */
    reason: z.enum(['heartbeat_stale', 'holder_gone', 'no_record']).optional(),
  }),
  z.object({
    ...base,
    type: z.literal('late_cost_recorded'),
    stage: z.string(),
    /** The iteration the stage ran in (`iteration` is the loop's when it added the cost). */
    stage_iteration: z.int().min(0),
    cost_usd: z.number(),
    /** The pending file the cost was read from (removed once added). */
    path: z.string(),
  }),
  z.object({ ...base, type: z.literal('late_cost_unreadable'), path: z.string(), reason: z.string() }),
]);

/** One event of events.jsonl. @public */
export type LoopEvent = z.output<typeof loopEventSchema>;

/** The `type` of an event. @public */
export type LoopEventType = LoopEvent['type'];

/** An event before the writer stamps `seq`. @public */
export type LoopEventDraft = LoopEvent extends infer E ? (E extends LoopEvent ? Omit<E, 'seq'> : never) : never;
