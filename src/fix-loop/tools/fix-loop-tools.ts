import type { Tool } from '../../ports/tool.js';
import { type GetFeedbackLoopInput, type GetFeedbackLoopOutput, getFeedbackLoopTool } from './get-tool.js';
import { type FixLoopToolsOptions, type FixLoopToolsOrchestrator, validateFixLoopToolsOptions } from './options.js';
import { type RunFeedbackLoopInput, type RunFeedbackLoopOutput, runFeedbackLoopTool } from './run-tool.js';
import { type StartFeedbackLoopInput, type StartFeedbackLoopOutput, startFeedbackLoopTool } from './start-tool.js';
import { type StepFeedbackLoopInput, type StepFeedbackLoopOutput, stepFeedbackLoopTool } from './step-tool.js';

/** The fix loop's tools: start, step, run, get. @public */
export type FixLoopTools = readonly [
  Tool<StartFeedbackLoopInput, StartFeedbackLoopOutput>,
  Tool<StepFeedbackLoopInput, StepFeedbackLoopOutput>,
  Tool<RunFeedbackLoopInput, RunFeedbackLoopOutput>,
  Tool<GetFeedbackLoopInput, GetFeedbackLoopOutput>,
];

/**
 * A fix-loop orchestrator as four tools for agent hosts (`start_feedback_loop`, `step_feedback_loop`,
 * `run_feedback_loop`, `get_feedback_loop`; snake_case like the session files, see docs/tools.md). Handlers never
 * reject: bad input is `invalid_input` naming its JSON path; a wrong option throws `INVALID_OPTIONS` here.
 *
 * @example
 * ```ts
 * import { createFixLoopTools, createGitPatchApplier, FixLoopOrchestrator } from 'goal-loop/fix-loop';
 *
 * const fixer = new FixLoopOrchestrator({ fs, dir: '.goal-loop/fix-sessions', commands, candidates, applier: createGitPatchApplier({ commands }) });
 * const [start, , run] = createFixLoopTools(fixer, { maxWallSeconds: 50 });
 * const started = await start.handler({ goal: 'tests pass', goal_type: 'tests', workspace: 'pkg', test_command: 'npm test' });
 * if (!started.isError) console.log(await run.handler({ session_id: started.output.session_id }));
 * ```
 * @public
 */
export function createFixLoopTools(
  orchestrator: FixLoopToolsOrchestrator,
  options: FixLoopToolsOptions = {},
): FixLoopTools {
  validateFixLoopToolsOptions(orchestrator, options);
  const source = options.candidates ?? 'source';
  return [
    startFeedbackLoopTool(orchestrator, source, options.allowedCommands ?? 'any'),
    stepFeedbackLoopTool(orchestrator, source),
    runFeedbackLoopTool(orchestrator, options, source),
    getFeedbackLoopTool(orchestrator),
  ];
}
