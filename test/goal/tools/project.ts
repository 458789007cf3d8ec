import { createGoalLoopTools, GoalLoop, type GoalLoopToolsOptions } from '../../../src/index.js';
import { runPaths } from '../../../src/pipeline/run-paths.js';
import { createMemoryFileSystem, createScriptedStageRunner } from '../../../src/testing.js';

// The goal loop's tools over a memory project: a dry-run evaluation, verdicts through the verdict writer, the
// persisted status — and every bad call a tool error naming the input's JSON path, never a rejection.

/** The run the tools are called on. */
export const RUN = '.goal-loop/runs/r-7';
/** The files of {@link RUN}. */
export const PATHS = runPaths(RUN);
/** The run's pipeline. */
export const STAGES = ['a', 'b'];
/** The run's goal: a judge criterion `design` and a run-relative file criterion `report`. */
export const GOAL = JSON.stringify({
  schema_version: 1,
  goal_id: 'tools-goal',
  criteria: [
    { id: 'design', kind: 'judge', question: 'Is the design sound?', rerun_stages: ['b'] },
    { id: 'report', kind: 'file_exists', path: 'report.json', run_relative: true, rerun_stages: ['a'] },
  ],
});

/** A memory project holding {@link GOAL}: its three tools, and a loop over {@link RUN} whose stages pass. */
export function project(options: Partial<GoalLoopToolsOptions> = {}) {
  const fs = createMemoryFileSystem({ files: { [PATHS.goal]: GOAL } });
  const [evaluate, submit, status] = createGoalLoopTools({ fs, ...options });
  const loop = () =>
    new GoalLoop({
      fs,
      runDir: RUN,
      stages: STAGES,
      runner: createScriptedStageRunner({ a: { status: 'passed' }, b: { status: 'passed' } }),
    });
  return { fs, evaluate, submit, status, loop };
}
