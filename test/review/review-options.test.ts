import { describe, expect, it } from 'vitest';
import type { StageContext } from '../../src/index.js';
import { consistencyReviewOptionShape, readRunOptionShape } from '../../src/review/review-options.js';
import type { ConsistencyReviewOptions, ReadRunOptions, ReviewStageRunnerOptions } from '../../src/review.js';
import { createReviewStageRunner, readRunInputs, runConsistencyReview } from '../../src/review.js';
import { createMemoryFileSystem } from '../../src/testing.js';
import { expectUnknownKey, refusal, refusedPaths } from '../kit/option-refusal.js';
import { initialStageContext } from '../kit/stage-context.js';
import { cleanRun } from './fixtures.js';

const RUN = '.goal-loop/runs/r-1';
const NOW = '2025-01-31T12:00:00.000Z';
const FEEDBACK = `${RUN}/artifacts/stages/11-feedback-loop/feedback.json`;

// The shapes hold exactly the options of the interfaces they check (they cannot import them: a cycle).
const reviewKeys: Record<keyof ConsistencyReviewOptions, unknown> = consistencyReviewOptionShape;
const shapeKeys: Record<keyof typeof consistencyReviewOptionShape, unknown> = {} as Required<ConsistencyReviewOptions>;
const readKeys: Record<keyof ReadRunOptions, unknown> = readRunOptionShape;
const readShapeKeys: Record<keyof typeof readRunOptionShape, unknown> = {} as Required<ReadRunOptions>;
void [reviewKeys, shapeKeys, readKeys, readShapeKeys];

// A run directory with every stage contract of a clean run, and what it holds before the review.
async function cleanProject() {
  const fs = createMemoryFileSystem();
  for (const [key, document] of Object.entries(cleanRun())) {
    await fs.writeText(`${RUN}/artifacts/${key}.json`, JSON.stringify(document));
  }
  return { fs, before: fs.snapshot() };
}

// A stage context for iteration 1 of the run.
const context = (fs: StageContext['fs']): StageContext => initialStageContext(fs, RUN);

describe('runConsistencyReview options', () => {
  it.each([
    ['maxIssuePerRule', 'maxIssuesPerRule'],
    ['rundir', 'runDir'],
    ['taskID', 'taskId'],
    ['concurency', 'concurrency'],
    ['stage', 'stages'],
    ['iterations', 'iteration'],
  ])('refuses %s, naming its path and suggesting %s, and writes nothing', async (key, suggestion) => {
    const { fs, before } = await cleanProject();
    const error = await expectUnknownKey(
      () => runConsistencyReview({ fs, runDir: RUN, now: NOW, [key]: 3 } as ConsistencyReviewOptions),
      [key],
      suggestion,
    );
    expect(error.message).toContain('runConsistencyReview');
    expect(fs.snapshot()).toEqual(before);
  });

  it.each([
    [{ concurrency: 0 }, ['concurrency']],
    [{ concurrency: 2.5 }, ['concurrency']],
    [{ maxIssuesPerRule: 0 }, ['maxIssuesPerRule']],
    [{ now: 'yesterday' }, ['now']],
    [{ iteration: -1 }, ['iteration']],
    [{ iteration: '2' }, ['iteration']],
    [{ taskId: '../escape' }, ['taskId']],
    [{ stages: '07-code' }, ['stages']],
    [{ stages: ['07-code', '07-code'] }, ['stages']],
    [{ clock: { now: 5 } }, ['clock']],
    [{ goal: 'docs-ready' }, ['goal']],
    [{ runDir: '' }, ['runDir']],
  ])('refuses %j at its path, writing nothing', async (wrong, path) => {
    const { fs, before } = await cleanProject();
    const options = { fs, runDir: RUN, now: NOW, ...wrong } as ConsistencyReviewOptions;
    expect(await refusedPaths(() => runConsistencyReview(options))).toEqual([path]);
    expect(fs.snapshot()).toEqual(before);
  });

  it('refuses a missing or wrong filesystem, and options that are not an object', async () => {
    expect(await refusedPaths(() => runConsistencyReview({ runDir: RUN } as never))).toEqual([['fs']]);
    expect(await refusedPaths(() => runConsistencyReview({ fs: {}, runDir: RUN } as never))).toEqual([['fs']]);
    expect(await refusedPaths(() => runConsistencyReview(RUN as never))).toEqual([[]]);
  });

  it('still reviews with every option given', async () => {
    const { fs } = await cleanProject();
    const options: Required<ConsistencyReviewOptions> = {
      fs,
      runDir: RUN,
      goal: null,
      iteration: null,
      now: '2025-01-31T13:00:00+01:00',
      clock: { now: () => 0 },
      stages: ['01-requirements', '07-code', '11-feedback-loop'],
      taskId: 'review-7',
      concurrency: 2,
      maxIssuesPerRule: 5,
    };
    expect(Object.keys(options).sort()).toEqual(Object.keys(consistencyReviewOptionShape).sort());
    const result = await runConsistencyReview(options);
    expect(result.taskId).toBe('review-7');
    expect(result.report.timestamp).toBe('2025-01-31T13:00:00+01:00');
    expect(await fs.stat(FEEDBACK)).not.toBeNull();
  });
});

describe('readRunInputs options', () => {
  it('refuses a misspelt option and a wrong value, each at its path', async () => {
    const { fs } = await cleanProject();
    const error = await expectUnknownKey(
      () => readRunInputs(fs, RUN, { iterations: 2 } as never),
      ['iterations'],
      'iteration',
    );
    expect(error.message).toContain('readRunInputs');
    expect(await refusedPaths(() => readRunInputs(fs, RUN, { concurrency: 0 }))).toEqual([['concurrency']]);
  });

  it('reads with valid options', async () => {
    const { fs } = await cleanProject();
    expect((await readRunInputs(fs, RUN, { iteration: null, concurrency: 1, goal: null, stages: [] })).goal).toBeNull();
  });
});

describe('createReviewStageRunner options', () => {
  it.each([
    ['failon', 'failOn'],
    ['stageID', 'stageId'],
    ['fallbak', 'fallback'],
    ['clocks', 'clock'],
  ])('refuses %s when the runner is made, suggesting %s', async (key, suggestion) => {
    const error = await expectUnknownKey(() => createReviewStageRunner({ [key]: 'never' } as never), [key], suggestion);
    expect(error.message).toContain('createReviewStageRunner');
  });

  it.each([
    [{ failOn: 'always' }, ['failOn']],
    [{ stageId: '' }, ['stageId']],
    [{ fallback: {} }, ['fallback']],
    [{ clock: 'system' }, ['clock']],
    [{ stages: [1] }, ['stages', 0]],
  ])('refuses %j at its path', async (wrong, path) => {
    expect(await refusedPaths(() => createReviewStageRunner(wrong as ReviewStageRunnerOptions))).toEqual([path]);
  });

  it('still runs the review with every option given', async () => {
    const { fs } = await cleanProject();
    const options: Required<ReviewStageRunnerOptions> = {
      stageId: 'review',
      fallback: { run: async () => ({ status: 'passed' }) },
      clock: { now: () => Date.UTC(2025, 0, 31) },
      stages: ['01-requirements', 'review'],
      failOn: 'never',
    };
    const runner = createReviewStageRunner(options);
    expect((await runner.run('review', context(fs))).status).toBe('passed');
    expect(await runner.run('07-code', context(fs))).toEqual({ status: 'passed' });
    expect(await fs.stat(FEEDBACK)).not.toBeNull();
  });
});

describe('refusal', () => {
  it('fails a test when the options are accepted', async () => {
    await expect(refusal(() => createReviewStageRunner())).rejects.toThrow('the options were accepted');
  });
});
