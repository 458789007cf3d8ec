// writeVerdict given the loop's stages: a verdict whose rerun stages the loop would ignore is refused before anything
// is read or written.
import { describe, expect, it } from 'vitest';
import { writeVerdict } from '../../src/goal/verdict-writer.js';
import { refusedPaths } from '../kit/option-refusal.js';
import { goalJson, harness, judge, PATHS, RUN, runFile } from './helpers.js';

describe('writeVerdict: stages', () => {
  it('refuses rerun stages outside the given stages, each at its path, naming the likely one', async () => {
    const h = harness({ [runFile('goal.json')]: goalJson([judge('design')]) });
    const options = { fs: h.fs, runDir: RUN, criterionId: 'design', verdict: 'FAIL' as const };
    const refused = writeVerdict({ ...options, recommendedRerunStages: ['b', '99-nope', 'bb'], stages: ['a', 'b'] });
    await expect(refused).rejects.toMatchObject({
      code: 'INVALID_OPTIONS',
      issues: [
        { path: ['recommendedRerunStages', 1], message: '"99-nope" is not a stage of the pipeline (a, b)' },
        {
          path: ['recommendedRerunStages', 2],
          message: '"bb" is not a stage of the pipeline (a, b); did you mean `b`?',
        },
      ],
    });
    expect(await h.fs.stat(PATHS.verdicts)).toBeNull();
    expect(await refusedPaths(() => writeVerdict({ ...options, stages: 'a' } as never))).toEqual([['stages']]);
  });

  it('checks them before reading the run: a wrong stage is named even where no run is', async () => {
    const h = harness();
    const options = { fs: h.fs, runDir: 'runs/none', criterionId: 'design', verdict: 'FAIL' as const };
    await expect(writeVerdict({ ...options, recommendedRerunStages: ['x'], stages: ['a'] })).rejects.toMatchObject({
      issues: [{ path: ['recommendedRerunStages', 0], message: '"x" is not a stage of the pipeline (a)' }],
    });
    // Stages as the loop takes them: at least one, none repeated.
    for (const stages of [[], ['a', 'a']])
      expect(await refusedPaths(() => writeVerdict({ ...options, stages }))).toEqual([['stages']]);
  });

  it('without stages they are not checked: the loop reports the verdict it ignores', async () => {
    const h = harness({ [runFile('goal.json')]: goalJson([judge('design')]) });
    const options = { fs: h.fs, runDir: RUN, criterionId: 'design', verdict: 'FAIL' as const };
    await expect(writeVerdict({ ...options, recommendedRerunStages: ['99-nope'] })).resolves.toMatchObject({
      recommended_rerun_stages: ['99-nope'],
    });
    await expect(
      writeVerdict({ ...options, recommendedRerunStages: ['b'], stages: ['a', 'b'] }),
    ).resolves.toMatchObject({ recommended_rerun_stages: ['b'] });
  });
});
