import { afterEach, describe, expect, it } from 'vitest';
import { StagedPipeline } from '../../src/critics/staged-pipeline.js';
import { setOpenTelemetryLoader } from '../../src/ports/open-telemetry.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { idOf, named, parentOf, recorder } from '../ports/span-recorder.js';
import { DIR, oneRetry, spec } from './helpers.js';

// The staged pipeline's spans through the OpenTelemetry SDK's in-memory exporter.

afterEach(() => {
  setOpenTelemetryLoader(undefined);
});

describe('StagedPipeline spans', () => {
  it('a run with one retry: execution → stage attempt → generator / critic, with verdicts, decisions and cost', async () => {
    const { tracer, spans } = recorder();
    const { pipeline } = oneRetry({ tracer });
    const result = await pipeline.run({ executionId: 'feat-1', spec });
    expect(result.status).toBe('completed');

    const all = spans();
    const [execution] = named(all, 'critics.execution');
    expect(execution?.parentSpanContext).toBeUndefined();
    expect(execution?.attributes).toMatchObject({
      'critics.execution_id': 'feat-1',
      'critics.mode': 'run',
      'critics.status': 'completed',
      'critics.backtracks': 0,
      'critics.cost_usd': result.spentUsd,
    });

    const attempts = named(all, 'critics.stage_attempt');
    expect(attempts.map((span) => `${span.attributes['critics.stage']}#${span.attributes['critics.attempt']}`)).toEqual(
      ['plan#1', 'plan#2', 'code#1', 'deploy#1'],
    );
    for (const span of attempts) expect(parentOf(span)).toBe(idOf(execution));
    expect(attempts.map((span) => span.attributes['critics.decision'])).toEqual([
      'retry',
      'accept',
      'accept',
      'accept',
    ]);
    expect(attempts[0]?.attributes['critics.verdict']).toBe('retry');

    const children = (index: number) =>
      all.filter((span) => parentOf(span) === idOf(attempts[index])).map((span) => span.name);
    expect(children(0)).toEqual(['critics.generator', 'critics.critic']);
    expect(children(1)).toEqual(['critics.generator', 'critics.critic']);
    expect(children(3)).toEqual(['critics.generator']);

    const [firstGenerator] = named(all, 'critics.generator');
    expect(firstGenerator?.attributes).toMatchObject({
      'critics.stage': 'plan',
      'critics.attempt': 1,
      'critics.status': 'ok',
      'critics.cost_usd': 0.5,
    });
    const [firstCritic] = named(all, 'critics.critic');
    expect(firstCritic?.attributes).toMatchObject({
      'critics.verdict': 'retry',
      'critics.decision': 'retry',
      'critics.score': 0.4,
      'critics.issues': 1,
      'critics.cost_usd': 0.25,
    });
    expect(all.every((span) => span.status.code === 0)).toBe(true);
    expect(all).toHaveLength(1 + 4 + 4 + 3);
  });

  it('a generator that throws is an ERROR span with what it threw; the execution escalates', async () => {
    const { tracer, spans } = recorder();
    const boom = new Error('model unreachable');
    const pipeline = new StagedPipeline({
      fs: createMemoryFileSystem(),
      dir: DIR,
      clock: createManualClock(0),
      tracer,
      stages: [{ id: 'plan', generate: () => Promise.reject(boom) }],
    });
    const result = await pipeline.run({ executionId: 'x', spec });
    expect(result.escalation).toBe('generator_failed');
    const [span] = named(spans(), 'critics.generator');
    expect(span?.status.code).toBe(2);
    expect(span?.status.message).toContain('model unreachable');
    expect(span?.events[0]?.attributes).toMatchObject({ 'exception.message': 'model unreachable' });
    expect(named(spans(), 'critics.stage_attempt')[0]?.attributes['critics.decision']).toBe('escalate');
    expect(named(spans(), 'critics.execution')[0]?.attributes).toMatchObject({
      'critics.status': 'escalated',
      'critics.escalation': 'generator_failed',
    });
  });

  it('a critic that breaks its contract is an ERROR span naming how', async () => {
    const { tracer, spans } = recorder();
    const pipeline = new StagedPipeline({
      fs: createMemoryFileSystem(),
      dir: DIR,
      clock: createManualClock(0),
      tracer,
      stages: [
        { id: 'plan', generate: async () => ({ output: 1 }), critic: async () => ({ decision: 'maybe' }) as never },
      ],
    });
    expect((await pipeline.run({ executionId: 'x', spec })).escalation).toBe('invalid_decision');
    const [span] = named(spans(), 'critics.critic');
    expect(span?.status.code).toBe(2);
    expect(span?.attributes['critics.verdict']).toBe('invalid');
  });

  it('step() opens an execution span per step, each holding its own turn', async () => {
    const { tracer, spans } = recorder();
    const { pipeline } = oneRetry({ tracer });
    const first = await pipeline.step({ executionId: 'feat-1', spec });
    expect(first.done).toBe(false);
    const [execution] = named(spans(), 'critics.execution');
    expect(execution?.attributes).toMatchObject({ 'critics.mode': 'step', 'critics.status': 'running' });
    expect(named(spans(), 'critics.stage_attempt').map(parentOf)).toEqual([idOf(execution)]);
  });

  it('with no tracer and the API missing (its loader fails), runs unchanged', async () => {
    setOpenTelemetryLoader(() => Promise.reject(new Error("Cannot find module '@opentelemetry/api'")));
    const traced = oneRetry({ tracer: recorder().tracer });
    const expected = await traced.pipeline.run({ executionId: 'feat-1', spec });
    const { fs, pipeline } = oneRetry();
    expect(await pipeline.run({ executionId: 'feat-1', spec })).toEqual(expected);
    expect(await fs.readText(`${DIR}/feat-1/trace.jsonl`)).toBe(await traced.fs.readText(`${DIR}/feat-1/trace.jsonl`));
  });
});
