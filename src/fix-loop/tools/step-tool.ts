import { z } from 'zod';
import { defineTool } from '../../ports/define-tool.js';
import type { Tool } from '../../ports/tool.js';
import { fixAttemptSchema } from '../contracts/attempt.js';
import { auditEntrySchema, fixSessionStatusSchema } from '../contracts/audit.js';
import { fixCandidateRecordSchema } from '../contracts/candidate.js';
import { fixActionSchema } from '../contracts/decision.js';
import { escalationReportSchema } from '../contracts/escalation.js';
import { gapModelSchema } from '../contracts/gap.js';
import { inToolNames, stepOutput } from './api-mapping.js';
import { escalationFilesOutput, type FixLoopToolsOrchestrator, sessionIdInput } from './options.js';

/** The input schema of the `step_feedback_loop` tool. @public */
export const stepFeedbackLoopInputSchema = z.strictObject({ session_id: sessionIdInput });

/** The output schema of the `step_feedback_loop` tool. @public */
export const stepFeedbackLoopOutputSchema = z.strictObject({
  session_id: z.string(),
  step_index: z.int().nonnegative(),
  action_taken: fixActionSchema,
  session_status: fixSessionStatusSchema,
  rationale: z.string().describe("The policy's sentence for this action."),
  description: z.string().describe('What the step did.'),
  gap: gapModelSchema
    .nullable()
    .describe('The gap after the step (build errors + failed tests + missing requirements).'),
  candidates: z
    .array(fixCandidateRecordSchema)
    .readonly()
    .optional()
    .describe('The fixes the candidate source proposed for the failure (on a build or test iteration).'),
  attempt: fixAttemptSchema
    .optional()
    .describe('The fix applied (or refused) by this step, with the gap before and after.'),
  escalation: escalationReportSchema.optional().describe('The report for a human, when the session escalated.'),
  escalation_files: escalationFilesOutput.optional(),
  interrupted: auditEntrySchema
    .optional()
    .describe('An earlier step found cut off by a crash, recorded before this one.'),
});

/** The input of the `step_feedback_loop` tool. @public */
export type StepFeedbackLoopInput = z.output<typeof stepFeedbackLoopInputSchema>;

/** The output of the `step_feedback_loop` tool: what one step did. @public */
export type StepFeedbackLoopOutput = z.output<typeof stepFeedbackLoopOutputSchema>;

/** `step_feedback_loop`: one step of a session; a finished session is an `invalid_state` tool error. @internal */
export function stepFeedbackLoopTool(
  orchestrator: FixLoopToolsOrchestrator,
): Tool<StepFeedbackLoopInput, StepFeedbackLoopOutput> {
  return defineTool({
    name: 'step_feedback_loop',
    description:
      'Takes one step of a fix session: probe the environment, measure the gap, or run a build/test iteration ' +
      '(propose fixes, apply the best untried automatic one, measure again). Returns the action taken, the session ' +
      'status, the gap, the candidates proposed and, when the session escalated, the escalation report and the ' +
      'files it was written to. A converged or escalated session takes no more steps (a tool error).',
    input: stepFeedbackLoopInputSchema,
    output: stepFeedbackLoopOutputSchema,
    run: async (call) => stepOutput(await inToolNames(() => orchestrator.step(call.session_id))),
  });
}
