import type { Tool } from '../../ports/tool.js';
import { type EvaluateGoalInput, type EvaluateGoalOutput, evaluateGoalTool } from './evaluate-goal-tool.js';
import { type LoopStatusInput, type LoopStatusOutput, loopStatusTool } from './loop-status-tool.js';
import { type GoalLoopToolsOptions, validateGoalLoopToolsOptions } from './options.js';
import { type SubmitVerdictInput, type SubmitVerdictOutput, submitVerdictTool } from './submit-verdict-tool.js';

/** The goal loop's tools, in this order: `evaluate_goal`, `submit_verdict`, `loop_status`. @public */
export type GoalLoopTools = readonly [
  Tool<EvaluateGoalInput, EvaluateGoalOutput>,
  Tool<SubmitVerdictInput, SubmitVerdictOutput>,
  Tool<LoopStatusInput, LoopStatusOutput>,
];

/**
 * The goal loop as tools for agent hosts (framework-neutral; any MCP server registers them as they are):
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
 *
 * @public
 */
export function createGoalLoopTools(options: GoalLoopToolsOptions): GoalLoopTools {
  validateGoalLoopToolsOptions(options);
  return [evaluateGoalTool(options), submitVerdictTool(options), loopStatusTool(options)];
}
