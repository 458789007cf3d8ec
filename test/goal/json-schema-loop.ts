import { GoalLoop, type GoalLoopOptions } from '../../src/index.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem, type MemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { createScriptedStageRunner, type ScriptedStep } from '../../src/testing/scripted-stage-runner.js';
import { passed } from './helpers.js';

// A loop of one stage, build, over a memory project, whose goal holds json_schema criteria on the run's out.json.

/** The run dir of the json_schema loops. */
export const RUN = 'runs/r';

type Raw = Record<string, unknown>;

/** A memory project of these files, each a string or a value written as JSON. */
export function project(files: Record<string, unknown>): MemoryFileSystem {
  return createMemoryFileSystem({
    files: Object.fromEntries(
      Object.entries(files).map(([path, value]) => [path, typeof value === 'string' ? value : JSON.stringify(value)]),
    ),
  });
}

/** A loop on `fs` whose goal holds these criteria (at most 3 iterations), and its runner of the build stage. */
export function loopOn(fs: MemoryFileSystem, criteria: readonly Raw[], steps: Record<string, ScriptedStep> = {}) {
  const runner = createScriptedStageRunner({ build: passed, ...steps });
  const options: GoalLoopOptions = {
    fs,
    runDir: RUN,
    stages: ['build'],
    runner,
    clock: createManualClock(Date.UTC(2030, 0, 1)),
    maxIterations: 3,
    goal: { schema_version: 1, goal_id: 'schemas', criteria } as GoalLoopOptions['goal'],
  };
  return { loop: new GoalLoop(options), runner };
}

/** A json_schema criterion `shape` on the run's out.json, rerunning build, with its schema or schema_path. */
export const criterion = (extra: Raw): Raw => ({
  id: 'shape',
  kind: 'json_schema',
  path: `${RUN}/out.json`,
  rerun_stages: ['build'],
  ...extra,
});
