import { z } from 'zod';
import type { PendingCost } from '../../kit/late-cost-memory.js';

/**
 * The schema of one pending late cost of an execution, `<dir>/<executionId>/spend-pending/<name>.json`: the cost a
 * generator or critic reported after the pipeline had stopped waiting for it (its time limit, an abort, or the loss of
 * the execution's lock). @internal
 */
export const executionLateCostSchema = z.strictObject({
  /** The execution the call belonged to (a record of another execution is not counted). */
  execution_id: z.string().min(1),
  /** The stage whose generator or critic reported the cost. */
  stage: z.string().min(1),
  /** The attempt of the stage the call belonged to. */
  attempt: z.int().min(1),
  /** Which call: the stage's generator or its critic. */
  call: z.enum(['generate', 'judge']),
  /** What the call reported, in USD; a record is written only for a cost above 0. */
  cost_usd: z.number().positive(),
  /** When the call settled (ISO 8601 from the pipeline's Clock). */
  settled_at: z.string(),
});

/** One pending late cost of an execution. @internal */
export type ExecutionLateCost = z.output<typeof executionLateCostSchema>;

/** A file of an execution's pending late costs folder as read. @internal */
export type PendingExecutionCost = PendingCost<ExecutionLateCost>;
