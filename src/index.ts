// goal-loop: the goal loop (GoalLoop, its options and results, goal files, verdicts, the tools for hosts) and the
// shared types: errors, ports, the system clock, the stage preset. No Node built-ins, no execa, and none of the other
// capabilities. The zod schemas, decision tables and wire shapes are in goal-loop/contracts.

export type { GoalLoopErrorCode, Issue } from './errors.js';
export { GoalLoopError, isGoalLoopError } from './errors.js';
export type { CommandStageRunnerOptions } from './goal/command-stage-runner.js';
export { createCommandStageRunner } from './goal/command-stage-runner.js';
export { defineGoal } from './goal/contracts/define-goal.js';
export type { LoopEvent } from './goal/contracts/events.js';
export type { Goal, GoalInput } from './goal/contracts/goal.js';
export type { GoalEvaluation } from './goal/core/evaluate.js';
export { exitCodeFor } from './goal/core/exit-code.js';
export { formatEvent } from './goal/core/format-event.js';
export { formatResult } from './goal/core/format-result.js';
export { GoalLoop } from './goal/goal-loop.js';
export type { LoopResult, LoopStepResult } from './goal/loop-result.js';
export type { LoopStatus } from './goal/loop-status.js';
export { readLoopStatus } from './goal/loop-status.js';
export type { GoalLoopOptions } from './goal/options.js';
export { parseGoal } from './goal/parse-goal.js';
export type { LoopRunOptions } from './goal/run-options.js';
export { renderRunReport } from './goal/run-report.js';
export type { StageContext, StageRunner } from './goal/stage-runner.js';
export { createGoalLoopTools } from './goal/tools/goal-loop-tools.js';
export type { GoalLoopToolsOptions } from './goal/tools/options.js';
export type { WriteVerdictOptions } from './goal/verdict-writer.js';
export { writeVerdict } from './goal/verdict-writer.js';
export { SDLC_STAGES } from './pipeline/stage-presets.js';
export type { Clock } from './ports/clock.js';
export { systemClock } from './ports/clock.js';
export type { CommandResult, CommandRunner } from './ports/command-runner.js';
export { defineTool } from './ports/define-tool.js';
export type { FileSystem } from './ports/file-system.js';
export type { StageOutcome } from './ports/stage-runner.js';
export type { Tool, ToolResult } from './ports/tool.js';
export type { Tracer } from './ports/tracer.js';
