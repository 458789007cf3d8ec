import type { Tool } from '../../ports/tool.js';
import { type GetFeedbackLoopInput, type GetFeedbackLoopOutput, getFeedbackLoopTool } from './get-tool.js';
import { type FixLoopToolsOptions, type FixLoopToolsOrchestrator, validateFixLoopToolsOptions } from './options.js';
import { type RunFeedbackLoopInput, type RunFeedbackLoopOutput, runFeedbackLoopTool } from './run-tool.js';
import { type StartFeedbackLoopInput, type StartFeedbackLoopOutput, startFeedbackLoopTool } from './start-tool.js';
import { type StepFeedbackLoopInput, type StepFeedbackLoopOutput, stepFeedbackLoopTool } from './step-tool.js';

/**
 * The fix loop's tools, in this order: `start_feedback_loop`, `step_feedback_loop`, `run_feedback_loop`,
 * `get_feedback_loop`.
 *
 * @public
 */
export type FixLoopTools = readonly [
  Tool<StartFeedbackLoopInput, StartFeedbackLoopOutput>,
  Tool<StepFeedbackLoopInput, StepFeedbackLoopOutput>,
  Tool<RunFeedbackLoopInput, RunFeedbackLoopOutput>,
  Tool<GetFeedbackLoopInput, GetFeedbackLoopOutput>,
];

/**
 * A fix-loop orchestrator as tools for agent hosts (framework-neutral; any MCP server registers them as they are):
 *
 * - `start_feedback_loop` `{ goal, goal_type, workspace, build_command?, test_command?, test_report?, max_attempts? }`
 *   → `{ session_id, status: "pending", issues }`;
 * - `step_feedback_loop` `{ session_id }`
 *   → `{ session_id, step_index, action_taken, session_status, gap, candidates?, attempt?, escalation?, … }`;
 * - `run_feedback_loop` `{ session_id, max_wall_seconds?, include_audit? }`
 *   → `{ session_id, final_status, steps_taken, final_gap, audit_log?, escalation?, escalation_files? }`;
 * - `get_feedback_loop` `{ session_id, audit_tail? }` → status, gap, escalation, escalation_files and the audit tail.
 *
 * Their names are the seed's snake_case, like the session's files; the orchestrator's own API is camelCase
 * (`start({ goalType, … })` → `{ sessionId }`), and the tools map between the two.
 *
 * Handlers never reject: bad input is `invalid_input` naming the JSON path, an unknown session `not_found`, a
 * converged or escalated session stepped again `invalid_state`, a session stepped elsewhere `busy`. An
 * `orchestrator` without the four methods the tools call (`start`, `step`, `runToCompletion`, `get`), a
 * `maxWallSeconds` that is not a positive number, or an unknown option key (`maxWallSecs`) throws `INVALID_OPTIONS`
 * here, naming each one's path.
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
