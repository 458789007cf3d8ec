import { trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { setOpenTelemetryLoader } from '../../src/ports/open-telemetry.js';
import type { StageOutcome } from '../../src/ports/stage-runner.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import { idOf, named, parentOf, recorder } from '../ports/span-recorder.js';
import { deferred, harness, passed, twoIterations } from './helpers.js';

// The loop's spans through the OpenTelemetry SDK's in-memory exporter: names, parentage, attributes.

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
});
