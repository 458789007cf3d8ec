import { z } from 'zod';
import type { PendingCost } from '../../kit/late-cost-memory.js';

/**
 * The schema of one pending late cost, `<runDir>/spend-pending/<name>.json`: the cost a stage runner reported after the
 * loop had stopped waiting for it (an abort, a lost lock, or the stage's time limit, past the grace), or the cost of a
 * stage that returned in time but whose commit was refused because its loop had lost the run's lock. @internal
 */
export const lateCostRecordSchema = z.object({
  /** The stage whose runner reported the cost. */
  stage: z.string().min(1),
  /** The run-wide iteration the stage ran in. */
  iteration: z.int().min(0),
  /** What the runner reported, in USD; a record is written only for a cost above 0. */
  cost_usd: z.number().positive(),
  /** When the runner settled (ISO 8601 from the loop's Clock). */
  settled_at: z.string(),
});

/** A file of the pending late costs folder as the loop read it. @internal */
export type PendingLateCost = PendingCost<z.output<typeof lateCostRecordSchema>>;
