import { z } from 'zod';
import {
  type Issue,
  invalidOptionIssues,
  optionShapeOf,
  portOption,
  refuseOptions,
  stageIdsOption,
} from '../../errors.js';
import type { CommandRunner } from '../../ports/command-runner.js';
import type { FileSystem } from '../../ports/file-system.js';

/** Who signs a verdict sent through `submit_verdict`: a human, or an agent. @public */
export type VerdictSource = 'human' | 'agent';

/** Options of {@link createGoalLoopTools}. @public */
export interface GoalLoopToolsOptions {
  /** The project's filesystem; every `run_dir` a tool receives is relative to its root. */
  readonly fs: FileSystem;
  /** Runs `command` criteria in `evaluate_goal`; without it they are PENDING. */
  readonly commands?: CommandRunner;
  /** The pipeline's stage ids, for `evaluate_goal` calls that name none (when absent, the stages recorded in the run's loop-state.json are used). */
  readonly stages?: readonly string[];
  /** The feedback stage's id. */
  readonly feedbackStage?: string;
  /** The sources `submit_verdict` accepts (default both). */
  readonly verdictSources?: readonly VerdictSource[];
}

// The FileSystem methods the tools call: reading a run (evaluate_goal, loop_status) and writing a verdict.
const FS_METHODS = ['readText', 'readBytes', 'writeText', 'stat', 'realpath'] as const;

// Every option has an entry (checked against GoalLoopToolsOptions), so a key outside it is a misspelling.
const optionShape = optionShapeOf<GoalLoopToolsOptions>()({
  fs: portOption(FS_METHODS, `fs must be a FileSystem (implement ${FS_METHODS.join(', ')})`),
  commands: portOption(['run'], 'commands must implement run').optional(),
  stages: stageIdsOption.min(1).optional(),
  feedbackStage: z.string().min(1).optional(),
  verdictSources: z.array(z.enum(['human', 'agent'])).optional(),
});

/** Refuses options the goal tools cannot work with, when the tools are created rather than on a later call. @internal */
export function validateGoalLoopToolsOptions(options: GoalLoopToolsOptions): void {
  refuseOptions('createGoalLoopTools', [...invalidOptionIssues(optionShape, options), ...feedbackStageIssues(options)]);
}

// With the pipeline's stages given, a feedback stage outside them is a mistake (GoalLoop refuses it too).
function feedbackStageIssues(options: GoalLoopToolsOptions): Issue[] {
  const { stages, feedbackStage } = (options ?? {}) as Partial<GoalLoopToolsOptions>;
  if (typeof feedbackStage !== 'string' || feedbackStage === '' || !Array.isArray(stages) || stages.length === 0)
    return [];
  if (stages.includes(feedbackStage)) return [];
  const message = `feedbackStage must be one of the stages (${stages.join(', ')}); ${JSON.stringify(feedbackStage)} is not`;
  return [{ code: 'unknown_stage', path: ['feedbackStage'], message }];
}
