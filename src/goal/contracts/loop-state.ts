import { z } from 'zod';
import { lateCostMemorySchema } from '../../kit/late-cost-memory.js';
import { stageStatusSchema } from '../../pipeline/stage-status.js';
import { loopEventSchema } from './events.js';
import { goalStatusSchema } from './goal-evaluation.js';
import { stopReasonSchema } from './stop-reason.js';

/** The schema of loop-state.json: the loop's own record of a run, written atomically after every state change. @public */
export const loopStateSchema = z.object({
  schema_version: z.literal(1),
  goal_id: z.string().min(1),
  goal_hash: z.string(),
  /** Run-wide iteration counter: the latest iteration started in this run. */
  iteration: z.int().min(0),
  session: z
    .object({
      index: z.int().min(1),
      started_at_iteration: z.int().min(0),
      max_iterations: z.int().min(1),
      /** The `maxIterations` the host asked for, when the hard cap clamped it. */
      max_iterations_requested: z.int().min(1).optional(),
      iterations: z.int().min(0),
      goal_hash: z.string(),
    })
    .nullable(),
  phase: z.enum(['idle', 'running_stages', 'evaluating', 'stopped']),
  /** The stages of the current iteration, in pipeline order. */
  iteration_stages: z.array(z.string()),
  /** Stages finished in the current iteration, with their outcomes. */
  completed_stages: z.array(
    z.object({
      stage: z.string(),
      status: stageStatusSchema,
      cost_usd: z.number(),
      duration_ms: z.number(),
      detail: z.string().optional(),
    }),
  ),
  stage_status: z.record(z.string(), stageStatusSchema),
  /** The run-wide iteration in which each stage last started (a verdict on its output is fresh until it reruns). */
  stage_runs: z.record(z.string(), z.int().min(0)).optional(),
  /** The first iteration evaluated under the current goal: verdicts stamped before it are stale. */
  goal_since: z.int().min(0).optional(),
  retry: z.object({ reason: z.string(), criteria: z.array(z.string()) }).nullable(),
  last_fingerprint: z.string().nullable(),
  last_evaluation: z
    .object({
      status: z.union([goalStatusSchema, z.literal('ERROR')]),
      score: z.number(),
      reason: z.string(),
      recommended_rerun_stages: z.array(z.string()),
    })
    .nullable(),
  spent_usd: z.number().min(0),
  /** Pending late costs already counted or reported (see `spend-pending/`); absent when there are none. */
  late_costs: lateCostMemorySchema.optional(),
  stop: z.object({ stopped_on: stopReasonSchema, reason: z.string(), iteration: z.int().min(0) }).nullable(),
  next_seq: z.int().min(0),
  outbox: z.array(loopEventSchema),
  updated_at: z.string(),
});

/** loop-state.json. @public */
export type LoopState = z.output<typeof loopStateSchema>;

/** The phase of a loop: between iterations, running stages, evaluating, or stopped. @public */
export type LoopPhase = LoopState['phase'];
