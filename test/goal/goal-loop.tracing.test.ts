import { trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { setOpenTelemetryLoader } from '../../src/ports/open-telemetry.js';
import type { StageOutcome } from '../../src/ports/stage-runner.js';
import type { Tracer } from '../../src/ports/tracer.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import { deferred, goalJson, harness, metricFile, passed, readEvents, readState, runFile, writes } from './helpers.js';

// The loop's spans through the OpenTelemetry SDK's in-memory exporter: names, parentage, attributes.

function recorder(): { tracer: Tracer; spans: () => ReadableSpan[] } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { tracer: provider.getTracer('test-host'), spans: () => exporter.getFinishedSpans() };
}

const named = (spans: readonly ReadableSpan[], name: string) => spans.filter((span) => span.name === name);
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan | undefined) => span?.spanContext().spanId;

// A run that retries stage a once: m.json holds the iteration, and the goal wants 2.
function twoIterations() {
  const h = harness({ [runFile('goal.json')]: goalJson([metricFile('m', 'out/m.json', '>=', 2, ['a'])]) });
  const runner = createScriptedStageRunner({
    a: writes('out/m.json', (ctx) => ({ value: ctx.iteration }), { status: 'passed', costUsd: 0.25 }),
    b: passed,
    c: passed,
  });
  return { h, runner };
}

afterEach(() => {
  setOpenTelemetryLoader(undefined);
  trace.disable();
});

describe('GoalLoop spans', () => {
  it('a two-iteration run: run → iteration → stage / evaluation, with decision, status, score, cost and iteration', async () => {
    const { tracer, spans } = recorder();
    const { h, runner } = twoIterations();
    const result = await h.loop(runner, { tracer }).run();
    expect(result.stoppedOn).toBe('complete');

    const all = spans();
    const [run] = named(all, 'goal_loop.run');
    expect(named(all, 'goal_loop.run')).toHaveLength(1);
    expect(run?.parentSpanContext).toBeUndefined();
    expect(run?.attributes).toMatchObject({
      'goal_loop.decision': 'complete',
      'goal_loop.iterations': 2,
      'goal_loop.iteration': 2,
      'goal_loop.cost_usd': 0.5,
      'goal_loop.status': 'PASS',
      'goal_loop.score': 100,
      'goal_loop.mode': 'run',
    });

    const iterations = named(all, 'goal_loop.iteration');
    expect(iterations.map((span) => span.attributes['goal_loop.iteration'])).toEqual([1, 2]);
    for (const span of iterations) expect(parentOf(span)).toBe(idOf(run));
    expect(iterations.map((span) => span.attributes['goal_loop.decision'])).toEqual(['retry', 'complete']);
    expect(iterations[0]?.attributes).toMatchObject({ 'goal_loop.status': 'RETRY', 'goal_loop.rerun_stages': 'a' });
    expect(iterations[1]?.attributes).toMatchObject({ 'goal_loop.status': 'PASS', 'goal_loop.score': 100 });
    expect(all.every((span) => span.spanContext().traceId === run?.spanContext().traceId)).toBe(true);

    const stages = named(all, 'goal_loop.stage');
    const under = (n: number) =>
      stages.filter((span) => parentOf(span) === idOf(iterations[n])).map((span) => span.attributes['goal_loop.stage']);
    expect(under(0)).toEqual(['a', 'b', 'c']);
    expect(under(1)).toEqual(['a']);
    expect(stages[0]?.attributes).toMatchObject({
      'goal_loop.stage': 'a',
      'goal_loop.iteration': 1,
      'goal_loop.status': 'passed',
      'goal_loop.cost_usd': 0.25,
      'goal_loop.stage_reason': 'initial',
    });
    expect(stages[3]?.attributes).toMatchObject({ 'goal_loop.iteration': 2, 'goal_loop.stage_reason': 'retry' });
    expect(stages.every((span) => span.status.code === 0)).toBe(true);

    const evaluations = named(all, 'goal_loop.evaluation');
    expect(evaluations.map(parentOf)).toEqual(iterations.map(idOf));
    expect(evaluations.map((span) => span.attributes['goal_loop.status'])).toEqual(['RETRY', 'PASS']);
    expect(evaluations[0]?.attributes['goal_loop.score']).toBeLessThan(100);
    expect(all).toHaveLength(1 + 2 + 4 + 2);
  });

  it('a failed stage is an ERROR span with the error recorded; a runner that throws records what it threw', async () => {
    const { tracer, spans } = recorder();
    const h = harness();
    const boom = new Error('model unreachable');
    const runner = createScriptedStageRunner({
      a: { status: 'failed', detail: 'tests red' },
      b: () => Promise.reject(boom),
      c: passed,
    });
    await h.loop(runner, { tracer, maxIterations: 1 }).run();

    const [a, b, c] = named(spans(), 'goal_loop.stage');
    expect(a?.status).toEqual({ code: 2, message: 'tests red' });
    expect(a?.attributes['goal_loop.status']).toBe('failed');
    expect(a?.events[0]?.attributes?.['exception.message']).toBe('tests red');
    expect(b?.status.code).toBe(2);
    expect(b?.status.message).toContain('model unreachable');
    expect(b?.events[0]?.attributes).toMatchObject({
      'exception.type': 'Error',
      'exception.message': 'model unreachable',
    });
    expect(b?.events[0]?.attributes?.['exception.stacktrace']).toContain('model unreachable');
    expect(c?.status.code).toBe(0);
    expect(c?.events).toEqual([]);
  });

  it('a run that rejects (the run is locked) ends its span as an error', async () => {
    const { tracer, spans } = recorder();
    const h = harness();
    const entered = deferred();
    const release = deferred<StageOutcome>();
    const holder = h
      .loop(
        createScriptedStageRunner({
          a: () => {
            entered.resolve();
            return release.promise;
          },
          b: passed,
          c: passed,
        }),
      )
      .run();
    await entered.promise;
    const rejected = await h
      .loop(createScriptedStageRunner({}), { tracer })
      .run()
      .catch((error: unknown) => error);
    expect(rejected).toMatchObject({ code: 'RUN_LOCKED' });
    release.resolve(passed);
    await holder;
    const [run] = named(spans(), 'goal_loop.run');
    expect(run?.status).toMatchObject({ code: 2 });
    expect(run?.events[0]?.attributes?.['exception.message']).toContain('lock');
    expect(spans()).toHaveLength(1);
  });

  it('step() spans one iteration, and a stepped run continues in a span per step', async () => {
    const { tracer, spans } = recorder();
    const { h, runner } = twoIterations();
    const loop = h.loop(runner, { tracer });
    expect((await loop.step()).done).toBe(false);
    expect((await loop.step()).done).toBe(true);
    const runs = named(spans(), 'goal_loop.run');
    expect(runs.map((span) => span.attributes['goal_loop.decision'])).toEqual(['retry', 'complete']);
    expect(runs.map((span) => span.attributes['goal_loop.mode'])).toEqual(['step', 'step']);
    const iterations = named(spans(), 'goal_loop.iteration');
    expect(iterations.map(parentOf)).toEqual(runs.map(idOf));
  });

  it('without a tracer, uses the global OpenTelemetry tracer once the API loads', async () => {
    const { spans } = recorder();
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    trace.setGlobalTracerProvider(provider);
    const { h, runner } = twoIterations();
    await h.loop(runner).run();
    const run = named(exporter.getFinishedSpans(), 'goal_loop.run')[0];
    expect(run?.instrumentationScope.name).toBe('goal-loop');
    expect(named(exporter.getFinishedSpans(), 'goal_loop.stage')).toHaveLength(4);
    expect(spans()).toEqual([]);
  });

  it('with no tracer and the API missing (its loader fails), runs unchanged and writes the same files', async () => {
    let loads = 0;
    setOpenTelemetryLoader(() => {
      loads += 1;
      return Promise.reject(new Error("Cannot find module '@opentelemetry/api'"));
    });
    const traced = recorder();
    const withTracer = twoIterations();
    const expected = await withTracer.h.loop(withTracer.runner, { tracer: traced.tracer }).run();

    const { h, runner } = twoIterations();
    const loop = h.loop(runner);
    const result = await loop.run();
    expect(result).toEqual(expected);
    expect(await readEvents(h.fs)).toEqual(await readEvents(withTracer.h.fs));
    expect(await readState(h.fs)).toEqual(await readState(withTracer.h.fs));
    await loop.run();
    expect(loads).toBe(1);
  });

  it("OpenTelemetry's own Tracer (the API's interface and the SDK's class) is a Tracer as it is", () => {
    expectTypeOf(trace.getTracer('my-host')).toExtend<Tracer>();
    expectTypeOf(new BasicTracerProvider().getTracer('my-host')).toExtend<Tracer>();
  });

  it('a tracer that throws on every call loses its spans, never the run', async () => {
    const throwing: Tracer = {
      startSpan: () => {
        throw new Error('exporter down');
      },
    };
    const { h, runner } = twoIterations();
    const result = await h.loop(runner, { tracer: throwing }).run();
    expect(result.stoppedOn).toBe('complete');
  });
});
