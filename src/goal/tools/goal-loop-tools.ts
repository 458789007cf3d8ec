import type { Tool } from '../../ports/tool.js';
import { type EvaluateGoalInput, type EvaluateGoalOutput, evaluateGoalTool } from './evaluate-goal-tool.js';
import { type LoopStatusInput, type LoopStatusOutput, loopStatusTool } from './loop-status-tool.js';
import { type GoalLoopToolsOptions, validateGoalLoopToolsOptions } from './options.js';
import { type SubmitVerdictInput, type SubmitVerdictOutput, submitVerdictTool } from './submit-verdict-tool.js';

/**
 * The goal loop's tools, in this order: `evaluate_goal`, `submit_verdict`, `loop_status`.
 *
 * @public
 */
export type GoalLoopTools = readonly [
  Tool<EvaluateGoalInput, EvaluateGoalOutput>,
  Tool<SubmitVerdictInput, SubmitVerdictOutput>,
  Tool<LoopStatusInput, LoopStatusOutput>,
];

/**
 * The goal loop as tools for agent hosts (framework-neutral; any MCP server registers them as they are):
 *
 * - `evaluate_goal` `{ run_dir, stages?, skip_commands? }`: a dry-run evaluation of the run's goal — status, score,
 *   stages to rerun, failing and pending criteria;
 * - `submit_verdict` `{ run_dir, criterion_id, verdict, source, judge?, reasoning?, … }`: a judge verdict into
 *   goal-verdict.json, stamped with the iteration that consumes it;
 * - `loop_status` `{ run_dir }`: the run's persisted loop — state, iteration, stop, last decision.
 *
 * Every `run_dir` is relative to the root of `fs`. Handlers never reject: bad input and refused calls resolve to
 * tool errors naming the JSON path. Wrong options (a wrong value, or an unknown key such as `verdictSource`)
 * throw `INVALID_OPTIONS` here, naming each one's path.
 *
 * @example
 * ```ts
 * import { createGoalLoopTools } from 'goal-loop';
 * import { createNodeFileSystem } from 'goal-loop/node';
 *
 * const tools = createGoalLoopTools({ fs: createNodeFileSystem(process.cwd()), verdictSources: ['agent'] });
 * const status = tools.find((tool) => tool.name === 'loop_status');
 * const result = await status?.handler({ run_dir: '.goal-loop/runs/r-42' });
 * ```
 * @public
 */
export function createGoalLoopTools(options: GoalLoopToolsOptions): GoalLoopTools {
  validateGoalLoopToolsOptions(options);
  return [evaluateGoalTool(options), submitVerdictTool(options), loopStatusTool(options)];
}
