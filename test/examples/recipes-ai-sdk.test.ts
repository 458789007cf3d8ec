import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { aiSdkCritic, aiSdkGenerator } from '../../examples/recipes/ai-sdk/critics.js';
import { mockModel } from '../../examples/recipes/ai-sdk/mock-model.js';
import {
  pricing,
  requirementsGoal,
  requirementsPrompts,
  SPEC_FILE,
} from '../../examples/recipes/ai-sdk/requirements.js';
import { aiSdkStageRunner } from '../../examples/recipes/ai-sdk/stage-runner.js';
import { StagedPipeline } from '../../src/critics/staged-pipeline.js';
import { GoalLoop } from '../../src/goal/goal-loop.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';

// The AI SDK recipes on the SDK's own mock models: cost from usage, the signal into the call, the retry's reason
// into the next prompt, the artifact through the loop's filesystem; and a generator judged by an AI SDK critic.

const RUN = '.goal-loop/runs/r-1';
// 10 input and 5 output tokens a call: (10 × 3 + 5 × 15) / 1e6 USD.
const CALL_USD = 0.000105;
const promptOf = (model: MockLanguageModelV3, call: number) => JSON.stringify(model.doGenerateCalls[call]?.prompt);

function loop(model: MockLanguageModelV3, signal?: AbortSignal) {
  const fs = createMemoryFileSystem();
  const runner = aiSdkStageRunner({ model, pricing, prompts: requirementsPrompts });
  return {
    fs,
    loop: new GoalLoop({
      fs,
      runDir: RUN,
      stages: ['02-requirements'],
      runner,
      goal: requirementsGoal,
      ...(signal ? { signal } : {}),
    }),
  };
}

describe('AI SDK stage runner', () => {
  it('writes the artifact, costs its usage, and tells the retry why the first answer failed', async () => {
    const model = mockModel(['{"requirements": []}', '{"requirements": [{"id": "FR-001"}]}']);
    const { fs, loop: goalLoop } = loop(model);
    const result = await goalLoop.run();
    expect(result.stoppedOn).toBe('complete');
    expect(result.iterations).toBe(2);
    expect(result.spentUsd).toBeCloseTo(2 * CALL_USD, 12);
    expect(JSON.parse((await fs.readText(`${RUN}/${SPEC_FILE}`)) ?? 'null')).toEqual({
      requirements: [{ id: 'FR-001' }],
    });
    expect(promptOf(model, 0)).not.toContain('did not meet the goal');
    expect(promptOf(model, 1)).toContain('did not meet the goal');
    expect(promptOf(model, 1)).toContain('spec-valid: ');
  });

  it("passes the loop's signal into the model call: an abort cuts the call and stops the loop aborted", async () => {
    const controller = new AbortController();
    const model = new MockLanguageModelV3({
      doGenerate: ({ abortSignal }) =>
        new Promise((_, reject) => {
          abortSignal?.addEventListener('abort', () => reject(abortSignal.reason));
          controller.abort(new Error('Ctrl-C'));
        }),
    });
    const result = await loop(model, controller.signal).loop.run();
    expect(result.stoppedOn).toBe('aborted');
    expect(model.doGenerateCalls[0]?.abortSignal?.aborted).toBe(true);
  });
});

describe('AI SDK critics', () => {
  it("retries the generator with the critic's issues, then accepts; every call's usage is costed", async () => {
    const writer = mockModel(['a plan without criteria', 'a plan with acceptance criteria']);
    const judge = mockModel([
      '{"decision": "retry", "issues": [{"issue": "no acceptance criteria"}], "confidence": 0.4}',
      '{"decision": "accept", "issues": [], "confidence": 0.9}',
    ]);
    const pipeline = new StagedPipeline({
      fs: createMemoryFileSystem(),
      dir: '.goal-loop/critics',
      stages: [
        {
          id: 'plan',
          generate: aiSdkGenerator(writer, pricing, 'Write a plan.'),
          critic: aiSdkCritic(judge, pricing, 'Accept a plan with acceptance criteria.'),
        },
      ],
    });
    const result = await pipeline.run({ executionId: 'login', spec: { feature: 'login' } });
    expect(result.status).toBe('completed');
    expect(result.attempts.plan).toBe(2);
    expect(result.spentUsd).toBeCloseTo(4 * CALL_USD, 12);
    expect(promptOf(writer, 1)).toContain('no acceptance criteria');
    expect(promptOf(judge, 1)).toContain('a plan with acceptance criteria');
  });
});
