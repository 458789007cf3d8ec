import { describe, expect, it } from 'vitest';
import type { CriticsStageRunnerOptions, ExecutionRequest } from '../../src/critics.js';
import {
  calibrationReport,
  createCriticsStageRunner,
  StagedPipeline,
  sampleForCalibration,
} from '../../src/critics.js';
import type { StageContext } from '../../src/index.js';
import { createManualClock, createMemoryFileSystem } from '../../src/testing.js';
import { expectUnknownKey, refusedPaths } from '../kit/option-refusal.js';
import { initialStageContext } from '../kit/stage-context.js';
import { critic, DIR, generator, type HostCall } from './helpers.js';

// A one-stage pipeline whose critic accepts, on a fresh memory filesystem.
function project() {
  const fs = createMemoryFileSystem();
  const calls: HostCall[] = [];
  const pipeline = new StagedPipeline({
    fs,
    dir: DIR,
    clock: createManualClock(Date.UTC(2026, 0, 1)),
    stages: [{ id: 'plan', generate: generator(calls), critic: critic(calls, () => ({ decision: 'accept' })) }],
  });
  return { fs, pipeline, calls };
}

// A stage context for iteration 1 of the run.
const context = (fs: StageContext['fs']): StageContext => initialStageContext(fs, '.goal-loop/runs/r-1');

describe('createCriticsStageRunner options', () => {
  it.each([
    ['stageID', 'stageId'],
    ['specs', 'spec'],
    ['executionID', 'executionId'],
    ['fallbak', 'fallback'],
  ])('refuses %s when the runner is made, suggesting %s', async (key, suggestion) => {
    const { pipeline } = project();
    const options = { stageId: 'build', spec: () => 1, [key]: () => 'x' } as CriticsStageRunnerOptions;
    const error = await expectUnknownKey(() => createCriticsStageRunner(pipeline, options), [key], suggestion);
    expect(error.message).toContain('createCriticsStageRunner');
  });

  it.each<[object, (string | number)[][]]>([
    [{ spec: () => 1, fallback: { run: async () => ({ status: 'passed' }) } }, [['fallback']]],
    [{ stageId: 'build' }, [['spec']]],
    [{ stageId: 'build', spec: { feature: () => 'login' } }, [['spec']]],
    [{ stageId: '', spec: () => 1, executionId: 'build-1' }, [['stageId'], ['executionId']]],
    [{ stageId: 'build', spec: () => 1, fallback: () => ({ status: 'passed' }) }, [['fallback']]],
  ])('refuses %j at each path', async (options, paths) => {
    const { pipeline } = project();
    expect(await refusedPaths(() => createCriticsStageRunner(pipeline, options as never))).toEqual(paths);
  });

  it('still runs the execution with every option given', async () => {
    const { fs, pipeline } = project();
    const options: Required<CriticsStageRunnerOptions> = {
      stageId: 'build',
      spec: () => ({ feature: 'login' }),
      executionId: (stage) => `exec-${stage.iteration}`,
      fallback: { run: async () => ({ status: 'passed' }) },
    };
    const runner = createCriticsStageRunner(pipeline, options);
    expect((await runner.run('build', context(fs))).status).toBe('passed');
    expect(await runner.run('intake', context(fs))).toEqual({ status: 'passed' });
    expect(await fs.stat(`${DIR}/exec-1/state.json`)).not.toBeNull();
  });
});

describe('StagedPipeline run and step requests', () => {
  it.each(['run', 'step'] as const)('%s refuses a misspelt request field before taking the lock', async (method) => {
    const { fs, pipeline, calls } = project();
    const request = { executionId: 'x1', spec: {}, signl: new AbortController().signal } as ExecutionRequest;
    const error = await expectUnknownKey(() => pipeline[method](request), ['signl'], 'signal');
    expect(error.message).toContain(`StagedPipeline.${method}()`);
    expect(fs.snapshot()).toEqual({});
    expect(calls).toEqual([]);
  });

  it('refuses a wrong execution id, a missing spec and a wrong signal at their paths, writing nothing', async () => {
    const { fs, pipeline } = project();
    const paths = await refusedPaths(() => pipeline.run({ executionId: '../x', signal: 'stop' } as never));
    expect(paths).toEqual([['executionId'], ['spec'], ['signal']]);
    expect(await refusedPaths(() => pipeline.run({ executionID: 'x1', spec: {} } as never))).toEqual([
      ['executionID'],
      ['executionId'],
    ]);
    expect(fs.snapshot()).toEqual({});
  });

  it('runs a valid request, the signal included', async () => {
    const { pipeline } = project();
    const result = await pipeline.run({ executionId: 'x1', spec: null, signal: new AbortController().signal });
    expect(result.status).toBe('completed');
  });
});

describe('calibration options', () => {
  it('refuses misspelt options, suggesting the known one', async () => {
    await expectUnknownKey(
      () => sampleForCalibration([], { perDecison: 5, seed: 's' } as never),
      ['perDecison'],
      'perDecision',
    );
    const sample = sampleForCalibration([], { seed: 's' });
    const labels = { schema_version: 1 as const, labels: [] };
    await expectUnknownKey(
      () => calibrationReport(sample, labels, { treshold: 0.9 } as never),
      ['treshold'],
      'threshold',
    );
  });

  it('refuses wrong values at their paths', async () => {
    expect(await refusedPaths(() => sampleForCalibration([], { perDecision: -1 } as never))).toEqual([
      ['perDecision'],
      ['seed'],
    ]);
    for (const seed of [Number.NaN, Number.POSITIVE_INFINITY, true, null, { n: 1 }])
      expect(await refusedPaths(() => sampleForCalibration([], { seed } as never))).toEqual([['seed']]);
    const sample = sampleForCalibration([], { perDecision: 0, seed: 's' });
    const labels = { schema_version: 1 as const, labels: [] };
    expect(await refusedPaths(() => calibrationReport(sample, labels, { threshold: 85 }))).toEqual([['threshold']]);
    expect(calibrationReport(sample, labels, { threshold: 1 }).threshold).toBe(1);
  });
});
