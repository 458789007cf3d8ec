// Quick start: a two-stage pipeline whose stage runner writes real files, and a goal of two criteria.
import { exitCodeFor, GoalLoop, type StageRunner } from 'goal-loop';
import { createExecaCommandRunner, createNodeFileSystem } from 'goal-loop/node';
import { expectStop, printEvent, tempProject } from './shared.js';

const project = await tempProject('quick-start');

// Your stage runner calls your agent; this one writes the artifacts itself.
const runner: StageRunner = {
  async run(stageId, context) {
    if (stageId === '02-requirements') {
      await context.fs.writeText(
        `${context.runDir}/artifacts/stages/02-requirements/requirement_spec.json`,
        JSON.stringify({ requirements: [{ id: 'FR-001', type: 'functional', title: 'Sign in' }] }),
      );
    }
    if (stageId === '07-code') await context.fs.writeText('src/sign-in.js', 'export const signIn = () => true;\n');
    return { status: 'passed', costUsd: 0.01 };
  },
};

const loop = new GoalLoop({
  fs: createNodeFileSystem(project.root),
  runDir: '.goal-loop/runs/r-1',
  stages: ['02-requirements', '07-code'],
  runner,
  commands: createExecaCommandRunner(),
  budgetUsd: 1,
  onEvent: printEvent,
  goal: {
    schema_version: 1,
    goal_id: 'quick-start',
    criteria: [
      {
        id: 'spec',
        kind: 'file_exists',
        run_relative: true,
        path: 'artifacts/stages/02-requirements/requirement_spec.json',
        rerun_stages: ['02-requirements'],
      },
      {
        id: 'code-loads',
        kind: 'command',
        command: 'node -e "import(\'./src/sign-in.js\')"',
        rerun_stages: ['07-code'],
      },
    ],
  },
});

const result = await loop.run();
expectStop(result, 'complete');
console.log(`exit code for a CLI wrapper: ${exitCodeFor(result)}`);
await project.dispose();
