import { z } from 'zod';
import { defineTool, toolError } from '../../ports/define-tool.js';
import { MAX_PATH_CHARS } from '../../ports/input-bounds.js';
import type { Tool } from '../../ports/tool.js';
import { fixSessionStatusSchema } from '../contracts/audit.js';
import { testReportFileSchema } from '../contracts/start.js';
import { type AllowedCommands, commandRefusals } from './allowed-commands.js';
import { inToolNames, startInput, toolIssues } from './api-mapping.js';
import type { FixLoopToolsOrchestrator } from './options.js';
import { FIX_SOURCE_SENTENCE, type FixSource, START_ANNOTATIONS } from './tool-texts.js';

const text = z.string().min(1);
// A name or a command: short text.
const line = text.max(MAX_PATH_CHARS);

/** The input schema of the `start_feedback_loop` tool. @public */
export const startFeedbackLoopInputSchema = z.strictObject({
  goal: text.describe('What the session must achieve, in one sentence (e.g. "the tests pass").'),
  goal_type: text.max(200).describe('The kind of goal (e.g. tests, build).'),
  workspace: line.describe("The workspace folder, relative to the server's project root."),
  build_command: line.optional().describe('The build command, run in the workspace (none: no build step).'),
  test_command: line.optional().describe('The test command, run in the workspace.'),
  test_report: testReportFileSchema
    .optional()
    .describe('Where the test command writes a JUnit XML or Jest/Vitest JSON report, relative to the workspace.'),
  max_attempts: z.int().min(1).optional().describe('Fixes tried at most before escalating (default 5, capped).'),
});

/** The output schema of the `start_feedback_loop` tool. @public */
export const startFeedbackLoopOutputSchema = z.strictObject({
  session_id: z.string(),
  status: fixSessionStatusSchema.extract(['pending']),
  issues: z
    .array(
      z.strictObject({
        code: z.string(),
        path: z.array(z.union([z.string(), z.number()])).readonly(),
        message: z.string(),
      }),
    )
    .readonly()
    .describe('Notes on the input that did not stop the start (a max_attempts clamped to the cap).'),
});

/** The input of the `start_feedback_loop` tool. @public */
export type StartFeedbackLoopInput = z.output<typeof startFeedbackLoopInputSchema>;

/** The output of the `start_feedback_loop` tool. @public */
export type StartFeedbackLoopOutput = z.output<typeof startFeedbackLoopOutputSchema>;

/** `start_feedback_loop`: creates a fix session; nothing runs until it is stepped. @internal */
export function startFeedbackLoopTool(
  orchestrator: FixLoopToolsOrchestrator,
  source: FixSource,
  allow: AllowedCommands,
): Tool<StartFeedbackLoopInput, StartFeedbackLoopOutput> {
  return defineTool({
    name: 'start_feedback_loop',
    title: 'Start a fix session',
    annotations: START_ANNOTATIONS,
    description:
      'Starts a build/test fix session on a workspace: records the goal and the build and test commands, and ' +
      'returns its session_id with status pending. Nothing runs yet: step it with step_feedback_loop, or drive it ' +
      `to convergence or escalation with run_feedback_loop. ${FIX_SOURCE_SENTENCE[source]}`,
    input: startFeedbackLoopInputSchema,
    output: startFeedbackLoopOutputSchema,
    run: async (call) => {
      const refused = commandRefusals(allow, call.workspace, call);
      if (refused.length > 0)
        return toolError('invalid_input', 'start_feedback_loop: this server does not run that command', refused);
      const started = await inToolNames(() => orchestrator.start(startInput(call)));
      return { session_id: started.sessionId, status: started.status, issues: toolIssues(started.issues) };
    },
  });
}
