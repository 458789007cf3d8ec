// Compiled against the built declarations (dist/*.d.ts) with the oldest TypeScript the README names.
import { defineGoal, type GoalEvaluation, GoalLoop, type LoopResult, parseGoal } from 'goal-loop';
import { type CriticMetrics, computeCriticMetrics } from 'goal-loop/critics';
import {
  createGitPatchApplier,
  FixLoopOrchestrator,
  type FixLoopRunResult,
  type FixStepResult,
  renderEscalationMarkdown,
} from 'goal-loop/fix-loop';
import { createExecaCommandRunner, createNodeFileSystem } from 'goal-loop/node';
import { reviewPipeline } from 'goal-loop/review';
import { createMemoryFileSystem, createScriptedStageRunner } from 'goal-loop/testing';

const goal = defineGoal({
  schema_version: 1,
  criteria: [
    { id: 'readme', kind: 'file_exists', path: 'README.md' },
    { id: 'shape', kind: 'json_schema', path: 'a.json', schema: { type: 'object' } },
  ],
} as const);
const loop = new GoalLoop({
  fs: createMemoryFileSystem(),
  runDir: 'r',
  stages: ['build'],
  runner: createScriptedStageRunner({ build: { status: 'passed' } }),
  commands: createExecaCommandRunner(),
  goal,
});
export const result: Promise<LoopResult> = loop.run();
export const evaluation: Promise<GoalEvaluation> = loop.evaluate();
export const parsed: boolean = parseGoal(goal).success;
export const nodeFs = createNodeFileSystem('.');
export const status: string = reviewPipeline({}, { timestamp: '2030-01-01T00:00:00.000Z' }).pipeline_status;
export const metrics: CriticMetrics = computeCriticMetrics([]);

const commands = createExecaCommandRunner();
const fixer = new FixLoopOrchestrator({
  fs: createMemoryFileSystem(),
  dir: 'fix-sessions',
  commands,
  candidates: { propose: ({ gap }) => [{ description: `fix ${gap.gap}`, confidence: 0.5, mutationType: 'auto' }] },
  applier: createGitPatchApplier({ commands }),
});
export const started: Promise<string> = fixer
  .start({ goal: 'tests pass', goalType: 'tests', workspace: '.', testCommand: 'npm test' })
  .then((started) => started.sessionId);
export const stepped: Promise<FixStepResult> = started.then((id) => fixer.step(id));
export const run: Promise<FixLoopRunResult> = started.then((id) => fixer.runToCompletion(id, { maxWallMs: 60_000 }));
export const taken: Promise<number> = run.then((done) => done.stepsTaken);
export const report: Promise<string | null> = run.then((done) =>
  done.escalation === null ? null : renderEscalationMarkdown(done.escalation),
);
