import { z } from 'zod';
import { defineTool, toolError } from '../../ports/define-tool.js';
import type { Tool } from '../../ports/tool.js';
import { auditEntrySchema, fixSessionStatusSchema } from '../contracts/audit.js';
import { escalationReportSchema } from '../contracts/escalation.js';
import { gapModelSchema } from '../contracts/gap.js';
import { inToolNames, runOutput } from './api-mapping.js';
import {
  escalationFilesOutput,
  type FixLoopToolsOptions,
  type FixLoopToolsOrchestrator,
  sessionIdInput,
} from './options.js';
import { FIX_SOURCE_SENTENCE, type FixSource, STEP_ANNOTATIONS } from './tool-texts.js';

/** The input schema of the `run_feedback_loop` tool. @public */
export const runFeedbackLoopInputSchema = z.strictObject({
  session_id: sessionIdInput,
  max_wall_seconds: z
    .number()
    .positive()
    .optional()
    .describe('Stop between steps once this many seconds have passed (the session then escalates wall_time).'),
  include_audit: z.boolean().optional().describe("Return the session's whole audit log (default false)."),
});

/** The output schema of the `run_feedback_loop` tool. @public */
export const runFeedbackLoopOutputSchema = z.strictObject({
  session_id: z.string(),
  final_status: fixSessionStatusSchema.describe('Where the session stands after the run: converged or escalated.'),
  steps_taken: z.int().nonnegative().describe('Steps this call took (0 for a session already finished).'),
  final_gap: gapModelSchema.nullable().describe('The gap last measured (null when nothing was measured).'),
  audit_log: z.array(auditEntrySchema).readonly().optional().describe('One entry per step, when include_audit.'),
  escalation: escalationReportSchema.optional().describe('The report for a human, when the session escalated.'),
  escalation_files: escalationFilesOutput.optional(),
});

/** The input of the `run_feedback_loop` tool. @public */
export type RunFeedbackLoopInput = z.output<typeof runFeedbackLoopInputSchema>;

/** The output of the `run_feedback_loop` tool: how the session ended (or where it stands). @public */
export type RunFeedbackLoopOutput = z.output<typeof runFeedbackLoopOutputSchema>;

/** `run_feedback_loop`: steps a session until it converges or escalates, within a wall time. @internal */
export function runFeedbackLoopTool(
  orchestrator: FixLoopToolsOrchestrator,
  options: FixLoopToolsOptions,
  source: FixSource,
): Tool<RunFeedbackLoopInput, RunFeedbackLoopOutput> {
  const limit = options.maxWallSeconds;
  return defineTool({
    name: 'run_feedback_loop',
    title: 'Run a fix session to the end',
    annotations: STEP_ANNOTATIONS,
    description:
      'Steps a fix session until it converges (gap 0) or escalates (attempt bound, no progress, worsening, only ' +
      'manual fixes left, a missing requirement, or the wall time spent). Returns the final status, the final gap, ' +
      'the number of steps taken, the escalation report and its files when it escalated and, with include_audit, ' +
      'the audit log.' +
      (limit === undefined ? '' : ` The wall time is at most ${limit} seconds.`) +
      (source === 'caller'
        ? ' Not served here, since fixes come from you: drive the session with step_feedback_loop and candidates.'
        : ` ${FIX_SOURCE_SENTENCE.source}`),
    input: runFeedbackLoopInputSchema,
    output: runFeedbackLoopOutputSchema,
    run: async (call, context) => {
      if (source === 'caller')
        return toolError(
          'invalid_state',
          'Fixes come from the caller on this server: step the session with step_feedback_loop, passing candidates when it answers needs_candidates',
        );
      const asked = call.max_wall_seconds;
      if (asked !== undefined && limit !== undefined && asked > limit) {
        return toolError('invalid_input', `This host runs a fix session for at most ${limit} seconds per call`, [
          { code: 'too_big', path: ['max_wall_seconds'], message: `at most ${limit}` },
        ]);
      }
      const seconds = asked ?? limit;
      const options = {
        ...(seconds === undefined ? {} : { maxWallMs: Math.round(seconds * 1000) }),
        ...(context.signal === undefined ? {} : { signal: context.signal }),
      };
      const result = await inToolNames(() => orchestrator.runToCompletion(call.session_id, options));
      return runOutput(result, call.include_audit === true);
    },
  });
}
