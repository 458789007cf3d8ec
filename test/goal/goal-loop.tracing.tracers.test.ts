import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { setOpenTelemetryLoader } from '../../src/ports/open-telemetry.js';
import type { Tracer } from '../../src/ports/tracer.js';
import { named, recorder } from '../ports/span-recorder.js';
import { readEvents, readState, twoIterations } from './helpers.js';

// The tracer the loop uses: the global OpenTelemetry one without its own, none when the API is missing, and a
// tracer that throws costs its spans, never the run.

afterEach(() => {
  setOpenTelemetryLoader(undefined);
  trace.disable();
});

describe('GoalLoop spans', () => {
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
