// The AI SDK recipes run on the SDK's mock models: a GoalLoop whose stage runner's first answer fails the goal and
// whose retry, told why, meets it; then a StagedPipeline whose critic retries the generator once.
import { GoalLoop } from 'goal-loop';
import { StagedPipeline } from 'goal-loop/critics';
import { createNodeFileSystem } from 'goal-loop/node';
import { expectStop, printEvent, tempProject } from '../../shared.js';
import { aiSdkCritic, aiSdkGenerator } from './critics.js';
import { mockModel } from './mock-model.js';
import { pricing, requirementsGoal, requirementsPrompts } from './requirements.js';
import { aiSdkStageRunner } from './stage-runner.js';

const project = await tempProject('ai-sdk');
const fs = createNodeFileSystem(project.root);
const model = mockModel(['{"requirements": []}', '{"requirements": [{"id": "FR-001", "title": "Sign in"}]}']);
const loop = new GoalLoop({
  fs,
  runDir: '.goal-loop/runs/r-1',
  stages: ['02-requirements'],
  runner: aiSdkStageRunner({ model, pricing, prompts: requirementsPrompts }),
  goal: requirementsGoal,
  budgetUsd: 1, // an unattended loop stops at its budget
  onEvent: printEvent,
});
const result = await loop.run();
expectStop(result, 'complete');
console.log(`spent $${result.spentUsd.toFixed(6)} on ${model.doGenerateCalls.length} model calls`);

const critic = mockModel([
  '{"decision": "retry", "issues": [{"issue": "no acceptance criteria"}], "confidence": 0.4}',
  '{"decision": "accept", "issues": [], "confidence": 0.9}',
]);
const pipeline = new StagedPipeline({
  fs,
  dir: '.goal-loop/critics',
  stages: [
    {
      id: 'plan',
      generate: aiSdkGenerator(mockModel(['a plan', 'a plan with acceptance criteria']), pricing, 'Write a plan.'),
      critic: aiSdkCritic(critic, pricing, 'Accept a plan with acceptance criteria.'),
    },
  ],
});
const staged = await pipeline.run({ executionId: 'sign-in', spec: { feature: 'sign-in' } });
console.log(`\ncritics: ${staged.status} after ${staged.attempts.plan} plan attempts, $${staged.spentUsd.toFixed(6)}`);
if (staged.status !== 'completed' || staged.attempts.plan !== 2) process.exitCode = 1;
await project.dispose();
