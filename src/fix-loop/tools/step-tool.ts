import { z } from 'zod';
import { defineTool } from '../../ports/define-tool.js';
import type { Tool } from '../../ports/tool.js';
import { fixAttemptSchema } from '../contracts/attempt.js';
import { auditEntrySchema, fixSessionStatusSchema } from '../contracts/audit.js';
import { fixCandidateRecordSchema } from '../contracts/candidate.js';
import { fixActionSchema } from '../contracts/decision.js';
import { escalationReportSchema } from '../contracts/escalation.js';
import { gapModelSchema } from '../contracts/gap.js';
import { MAX_PATCH_CHARS } from '../core/git-apply-command.js';
import { candidatesInput, needsFixOutput } from './agent-candidates.js';
import { inToolNames, stepCandidates, stepOutput, waitingForCandidates } from './api-mapping.js';
import { escalationFilesOutput, type FixLoopToolsOrchestrator, sessionIdInput } from './options.js';
import { FIX_SOURCE_SENTENCE, type FixSource, STEP_ANNOTATIONS } from './tool-texts.js';

/** The input schema of the `step_feedback_loop` tool. @public */
export const stepFeedbackLoopInputSchema = z.strictObject({ session_id: sessionIdInput, candidates: candidatesInput });

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
    .describe('The fixes proposed for the failure (on a build or test iteration).'),
  attempt: fixAttemptSchema
    .optional()
    .describe('The fix applied (or refused, or reverted) by this step, with the gap before and after.'),
  escalation: escalationReportSchema.optional().describe('The report for a human, when the session escalated.'),
  escalation_files: escalationFilesOutput.optional(),
  interrupted: auditEntrySchema
    .optional()
    .describe('An earlier step found cut off by a crash, recorded before this one.'),
  needs_fix: needsFixOutput.optional(),
  needs_candidates: z
    .literal(true)
    .optional()
    .describe(
      'No step was taken: the next step applies a fix and fixes come from the caller. Call again with candidates.',
    ),
});

/** The input of the `step_feedback_loop` tool. @public */
export type StepFeedbackLoopInput = z.output<typeof stepFeedbackLoopInputSchema>;

/** The output of the `step_feedback_loop` tool: what one step did. @public */
export type StepFeedbackLoopOutput = z.output<typeof stepFeedbackLoopOutputSchema>;

/** `step_feedback_loop`: one step of a session; a finished session is an `invalid_state` tool error. @internal */
export function stepFeedbackLoopTool(
  orchestrator: FixLoopToolsOrchestrator,
  source: FixSource,
): Tool<StepFeedbackLoopInput, StepFeedbackLoopOutput> {
  return defineTool({
    name: 'step_feedback_loop',
    title: 'Step a fix session',
    annotations: STEP_ANNOTATIONS,
    description:
      'Takes one step of a fix session: probe the environment, measure the gap, or run a build/test iteration ' +
      '(apply the best untried automatic fix, measure again, revert it when the gap did not go down). Returns the ' +
      'action taken, the session status, the gap, the candidates proposed, needs_fix (failing tests, output tail, ' +
      'attempts so far) when the next step needs a fix, and, when the session escalated, the escalation report and ' +
      `its files. A converged or escalated session takes no more steps (a tool error). ${FIX_SOURCE_SENTENCE[source]}`,
    // A candidate's patch may take the 1 MiB the git applier passes; every other field has its own bound.
    maxTextChars: MAX_PATCH_CHARS,
    input: stepFeedbackLoopInputSchema,
    output: stepFeedbackLoopOutputSchema,
    run: async (call, context) => {
      if (source === 'caller' && call.candidates === undefined) {
        const waiting = await inToolNames(() => orchestrator.get(call.session_id));
        const answer = waitingForCandidates(waiting);
        if (answer !== null) return answer;
      }
      return stepOutput(
        await inToolNames(() =>
          orchestrator.step(call.session_id, {
            ...stepCandidates(call.candidates),
            ...(context.signal === undefined ? {} : { signal: context.signal }),
          }),
        ),
      );
    },
  });
}
