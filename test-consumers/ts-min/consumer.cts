// The CommonJS declarations (dist/*.d.cts), compiled with the oldest TypeScript the README names.
import goalLoop = require('goal-loop');
import node = require('goal-loop/node');
import review = require('goal-loop/review');
import testing = require('goal-loop/testing');

const loop = new goalLoop.GoalLoop({
  fs: testing.createMemoryFileSystem(),
  runDir: 'r',
  stages: ['build'],
  runner: testing.createScriptedStageRunner({ build: { status: 'passed' } }),
  commands: node.createExecaCommandRunner(),
  goal: goalLoop.defineGoal({ schema_version: 1, criteria: [{ id: 'x', kind: 'command', command: 'true' }] }),
});
export const result: Promise<goalLoop.LoopResult> = loop.run();
export const report = review.reviewPipeline({}, { timestamp: '2030-01-01T00:00:00.000Z' });
