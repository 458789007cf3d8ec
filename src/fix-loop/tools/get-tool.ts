import { z } from 'zod';
import { defineTool } from '../../ports/define-tool.js';
import type { Tool } from '../../ports/tool.js';
import { auditEntrySchema, fixSessionStatusSchema } from '../contracts/audit.js';
import { escalationReportSchema } from '../contracts/escalation.js';
import { gapModelSchema } from '../contracts/gap.js';
import { getOutput, inToolNames } from './api-mapping.js';
import { escalationFilesOutput, type FixLoopToolsOrchestrator, sessionIdInput } from './options.js';
import { READ_ANNOTATIONS } from './tool-texts.js';

// The most audit entries one call returns (a long session's whole log is run_feedback_loop's include_audit).
const MAX_AUDIT_TAIL = 500;

/** The input schema of the `get_feedback_loop` tool. @public */
export const getFeedbackLoopInputSchema = z.strictObject({
  session_id: sessionIdInput,
  audit_tail: z
    .int()
    .min(0)
    .max(MAX_AUDIT_TAIL)
    .optional()
    .describe(`How many of the last audit entries to return (default 20, at most ${MAX_AUDIT_TAIL}).`),
});

/** The output schema of the `get_feedback_loop` tool. @public */
export const getFeedbackLoopOutputSchema = z.strictObject({
  session_id: z.string(),
  status: fixSessionStatusSchema,
  goal: z.string(),
  goal_type: z.string(),
  workspace: z.string(),
  attempts_made: z.int().nonnegative(),
  max_attempts: z.int().positive(),
  gap: gapModelSchema.nullable().describe('The gap last measured (null before the first measurement).'),
  escalation: escalationReportSchema.nullable(),
  escalation_files: escalationFilesOutput.nullable(),
  audit_tail: z.array(auditEntrySchema).readonly().describe('The last audit entries, oldest first.'),
});

/** The input of the `get_feedback_loop` tool. @public */
export type GetFeedbackLoopInput = z.output<typeof getFeedbackLoopInputSchema>;

/** The output of the `get_feedback_loop` tool: where a session stands, with the tail of its audit log. @public */
export type GetFeedbackLoopOutput = z.output<typeof getFeedbackLoopOutputSchema>;

/** `get_feedback_loop`: a session's status and audit tail, read without its lock. @internal */
export function getFeedbackLoopTool(
  orchestrator: FixLoopToolsOrchestrator,
): Tool<GetFeedbackLoopInput, GetFeedbackLoopOutput> {
  return defineTool({
    name: 'get_feedback_loop',
    title: 'Read a fix session',
    annotations: READ_ANNOTATIONS,
    description:
      'Reads a fix session without stepping it: its status, goal, workspace, attempts made, last gap, the escalation ' +
      'report and its files once escalated, and the last entries of its audit log (one per step: action, candidate ' +
      'applied, gap before and after, status after, duration).',
    input: getFeedbackLoopInputSchema,
    output: getFeedbackLoopOutputSchema,
    run: async (call) =>
      getOutput(await inToolNames(() => orchestrator.get(call.session_id, { auditTail: call.audit_tail ?? 20 }))),
  });
}
