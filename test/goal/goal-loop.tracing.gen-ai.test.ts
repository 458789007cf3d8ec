import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { generateText } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { mockModel } from '../../examples/recipes/ai-sdk/mock-model.js';
import type { StageRunner } from '../../src/goal/stage-runner.js';
import { setOpenTelemetryLoader } from '../../src/ports/open-telemetry.js';
import type { Tracer } from '../../src/ports/tracer.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import { idOf, named, parentOf, recorder } from '../ports/span-recorder.js';
import { harness, passed, twoIterations } from './helpers.js';

// The opt-in GenAI attributes of the loop's spans, and an AI SDK model call made inside a stage nesting under it.

afterEach(() => {
  setOpenTelemetryLoader(undefined);
  context.disable();
  trace.disable();
});

const genAiKeys = (attributes: object) => Object.keys(attributes).filter((key) => key.startsWith('gen_ai.'));

describe('GoalLoop GenAI attributes', () => {
  it('are off by default: no span carries a gen_ai.* or error.type attribute', async () => {
    const { tracer, spans } = recorder();
    const h = harness();
    await h
      .loop(createScriptedStageRunner({ a: { status: 'failed' }, b: passed, c: passed }), { tracer, maxIterations: 1 })
      .run();
    expect(spans().length).toBeGreaterThan(0);
    for (const span of spans()) {
      expect(genAiKeys(span.attributes)).toEqual([]);
      expect(span.attributes['error.type']).toBeUndefined();
    }
  });

  it('with genAiAttributes: the run is invoke_workflow, each stage invoke_agent named by its id', async () => {
    const { tracer, spans } = recorder();
    const { h, runner } = twoIterations();
    await h.loop(runner, { tracer, genAiAttributes: true }).run();
    const [run] = named(spans(), 'goal_loop.run');
    expect(run?.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_workflow',
      'gen_ai.agent.name': 'goal-loop',
    });
    const stages = named(spans(), 'goal_loop.stage');
    expect(stages.map((span) => span.attributes['gen_ai.operation.name'])).toEqual(Array(4).fill('invoke_agent'));
    expect(stages.map((span) => span.attributes['gen_ai.agent.name'])).toEqual(['a', 'b', 'c', 'a']);
    for (const name of ['goal_loop.iteration', 'goal_loop.evaluation'])
      for (const span of named(spans(), name)) expect(genAiKeys(span.attributes)).toEqual([]);
  });

  it('a failed stage carries error.type: what its runner threw, else _OTHER', async () => {
    const { tracer, spans } = recorder();
    const runner = createScriptedStageRunner({
      a: { status: 'failed', detail: 'tests red' },
      b: () => Promise.reject(new TypeError('bad model reply')),
      c: passed,
    });
    await harness().loop(runner, { tracer, genAiAttributes: true, maxIterations: 1 }).run();
    const [a, b, c] = named(spans(), 'goal_loop.stage');
    expect(a?.attributes['error.type']).toBe('_OTHER');
    expect(b?.attributes['error.type']).toBe('TypeError');
    expect(c?.attributes['error.type']).toBeUndefined();
  });

  it("an AI SDK call inside a stage runner nests under the stage's span (a context manager registered)", async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const { tracer, spans } = recorder();
    const runner: StageRunner = {
      async run(stageId, stage) {
        await generateText({
          model: mockModel(),
          prompt: `run ${stageId}`,
          abortSignal: stage.signal,
          experimental_telemetry: { isEnabled: true, tracer },
        });
        return { status: 'passed' };
      },
    };
    const h = harness();
    await h.loop(runner, { tracer, genAiAttributes: true, maxIterations: 1 }).run();
    const stages = named(spans(), 'goal_loop.stage');
    const calls = named(spans(), 'ai.generateText');
    expect(calls).toHaveLength(3);
    expect(calls.map(parentOf)).toEqual(stages.map(idOf));
    const [firstCall] = calls;
    expect(named(spans(), 'ai.generateText.doGenerate').map(parentOf)).toContain(idOf(firstCall));
  });

  it("a host's own tracer port (spans without spanContext) is never made OpenTelemetry's active span", async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const otel = recorder();
    const names: string[] = [];
    const ownTracer: Tracer = {
      startSpan: (name) => {
        names.push(name);
        return { setAttributes: () => 0, setStatus: () => 0, recordException: () => 0, end: () => 0 };
      },
    };
    const runner: StageRunner = {
      async run() {
        await generateText({
          model: mockModel(),
          prompt: 'x',
          experimental_telemetry: { isEnabled: true, tracer: otel.tracer },
        });
        return { status: 'passed' };
      },
    };
    const h = harness();
    await h.loop(runner, { tracer: ownTracer, maxIterations: 1 }).run();
    const statuses = h.seen.flatMap((event) => (event.type === 'stage_completed' ? [event.status] : []));
    expect(statuses).toEqual(['passed', 'passed', 'passed']);
    expect(names.filter((name) => name === 'goal_loop.stage')).toHaveLength(3);
    expect(named(otel.spans(), 'ai.generateText').map(parentOf)).toEqual([undefined, undefined, undefined]);
  });

  it('without a context manager the stage spans are unchanged and the model call is a root span', async () => {
    const { tracer, spans } = recorder();
    const runner: StageRunner = {
      async run() {
        await generateText({ model: mockModel(), prompt: 'x', experimental_telemetry: { isEnabled: true, tracer } });
        return { status: 'passed' };
      },
    };
    await harness().loop(runner, { tracer, maxIterations: 1 }).run();
    expect(named(spans(), 'ai.generateText').map(parentOf)).toEqual([undefined, undefined, undefined]);
  });
});
