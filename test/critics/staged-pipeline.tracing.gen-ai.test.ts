import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { generateText } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { mockModel } from '../../examples/recipes/ai-sdk/mock-model.js';
import type { StageDefinition, StagedPipelineOptions } from '../../src/critics/options.js';
import { StagedPipeline } from '../../src/critics/staged-pipeline.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { idOf, named, parentOf, recorder } from '../ports/span-recorder.js';
import { DIR, oneRetry, spec } from './helpers.js';

// The opt-in GenAI attributes of the staged pipeline's spans, and AI SDK calls nesting under generator and critic.

afterEach(() => {
  context.disable();
  trace.disable();
});

const pipelineOf = (stages: StageDefinition[], options: Partial<StagedPipelineOptions>) =>
  new StagedPipeline({ fs: createMemoryFileSystem(), dir: DIR, stages, clock: createManualClock(0), ...options });

describe('StagedPipeline GenAI attributes', () => {
  it('are off by default', async () => {
    const { tracer, spans } = recorder();
    await oneRetry({ tracer }).pipeline.run({ executionId: 'feat-1', spec });
    for (const span of spans())
      expect(Object.keys(span.attributes).filter((key) => key.startsWith('gen_ai.'))).toEqual([]);
  });

  it('the execution is invoke_workflow; generators and critics invoke_agent, named by stage and <stage>.critic', async () => {
    const { tracer, spans } = recorder();
    await oneRetry({ tracer, genAiAttributes: true }).pipeline.run({ executionId: 'feat-1', spec });
    const [execution] = named(spans(), 'critics.execution');
    expect(execution?.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_workflow',
      'gen_ai.agent.name': 'staged-pipeline',
    });
    const agents = (name: string) =>
      named(spans(), name).map(
        (span) => `${span.attributes['gen_ai.operation.name']} ${span.attributes['gen_ai.agent.name']}`,
      );
    expect(agents('critics.generator')).toEqual([
      'invoke_agent plan',
      'invoke_agent plan',
      'invoke_agent code',
      'invoke_agent deploy',
    ]);
    expect(agents('critics.critic')).toEqual([
      'invoke_agent plan.critic',
      'invoke_agent plan.critic',
      'invoke_agent code.critic',
    ]);
    expect(named(spans(), 'critics.stage_attempt')[0]?.attributes['gen_ai.operation.name']).toBeUndefined();
  });

  it('a generator that throws is an ERROR span with error.type', async () => {
    const { tracer, spans } = recorder();
    const stages: StageDefinition[] = [
      {
        id: 'plan',
        generate: () => Promise.reject(new RangeError('context window exceeded')),
        retryBudget: 0,
        onBudgetSpent: 'escalate',
      },
    ];
    await pipelineOf(stages, { tracer, genAiAttributes: true }).run({ executionId: 'feat-1', spec });
    const [generator] = named(spans(), 'critics.generator');
    expect(generator?.status.code).toBe(2);
    expect(generator?.attributes['error.type']).toBe('RangeError');
  });

  it("AI SDK calls in a generator and its critic nest under the generator's and the critic's spans", async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const { tracer, spans } = recorder();
    const telemetry = { isEnabled: true, tracer };
    const stages: StageDefinition[] = [
      {
        id: 'plan',
        generate: async ({ signal }) => {
          const { text } = await generateText({
            model: mockModel(['a plan']),
            prompt: 'plan',
            abortSignal: signal,
            experimental_telemetry: telemetry,
          });
          return { output: text };
        },
        critic: async ({ signal }) => {
          await generateText({
            model: mockModel(['ok']),
            prompt: 'judge',
            abortSignal: signal,
            experimental_telemetry: telemetry,
          });
          return { decision: 'accept' };
        },
      },
    ];
    await pipelineOf(stages, { tracer }).run({ executionId: 'feat-1', spec });
    const calls = named(spans(), 'ai.generateText');
    expect(calls.map(parentOf)).toEqual([
      idOf(named(spans(), 'critics.generator')[0]),
      idOf(named(spans(), 'critics.critic')[0]),
    ]);
  });
});
