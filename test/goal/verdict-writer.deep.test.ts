// writeVerdict on a goal-verdict.json nested deeper than it can rewrite: refused as INVALID_CONTRACT naming where,
// the file left as it is (JSON.stringify recursed past the call stack and threw a raw RangeError).
import { describe, expect, it } from 'vitest';
import { writeVerdict } from '../../src/goal/verdict-writer.js';
import { goalJson, harness, judge, PATHS, RUN, runFile } from './helpers.js';

const nested = (levels: number, leaf = '1') => `${'{"a":'.repeat(levels)}${leaf}${'}'.repeat(levels)}`;

describe('writeVerdict: a deeply nested goal-verdict.json', () => {
  it.each([10_000, 100_000])('refuses one nested %i deep, untouched', async (levels) => {
    const text = `{"verdicts":[${nested(levels)}]}`;
    const h = harness({ [runFile('goal.json')]: goalJson([judge('design')]), [PATHS.verdicts]: text });
    const written = writeVerdict({ fs: h.fs, runDir: RUN, criterionId: 'design', verdict: 'PASS' });
    await expect(written).rejects.toMatchObject({
      code: 'INVALID_CONTRACT',
      // The first container past level 1,000: the file is level 1, its verdicts level 2.
      issues: [{ code: 'too_deep', path: ['verdicts', 0, ...Array(998).fill('a')] }],
    });
    await expect(written).rejects.toThrow(
      /goal-verdict\.json: \$\.verdicts\[0\] nests more than 1000 levels deep, deeper than writeVerdict can rewrite/,
    );
    expect(await h.fs.readText(PATHS.verdicts)).toBe(text);
  });

  it('rewrites one 1,000 levels deep (the file counts as the first level)', async () => {
    const text = `{"verdicts":[${nested(997)}]}`;
    const h = harness({ [runFile('goal.json')]: goalJson([judge('design')]), [PATHS.verdicts]: text });
    await writeVerdict({ fs: h.fs, runDir: RUN, criterionId: 'design', verdict: 'PASS' });
    const verdicts = (JSON.parse((await h.fs.readText(PATHS.verdicts)) ?? '') as { verdicts: unknown[] }).verdicts;
    expect(verdicts).toHaveLength(2);
    expect(verdicts[1]).toMatchObject({ criterion_id: 'design', verdict: 'PASS' });
  });
});
