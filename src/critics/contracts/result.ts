import { z } from 'zod';
import { gapSchema } from './execution-state.js';
import { escalationReasonSchema, traceRecordSchema } from './trace.js';

/** How a staged execution ended (plain data). @public */
export const stagedResultSchema = z.strictObject({
  executionId: z.string(),
  status: z.enum(['completed', 'escalated']),
  reason: z.string(),
  escalation: escalationReasonSchema.nullable(),
  outputs: z.record(z.string(), z.json()),
  gaps: z.array(gapSchema),
  attempts: z.record(z.string(), z.number().int().nonnegative()),
  backtracks: z.number().int().nonnegative(),
  spentUsd: z.number().nonnegative(),
  trace: z.array(traceRecordSchema),
});

/** How a staged execution ended. @public */
export type StagedResult = z.infer<typeof stagedResultSchema>;

/** What the metrics and the calibration read of one execution: its id, how it ended, and its trace (a {@link StagedResult} is one). @public */
export type ExecutionTrace = Pick<StagedResult, 'executionId' | 'status' | 'escalation' | 'trace'>;
