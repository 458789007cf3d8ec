import { describe, expect, it } from 'vitest';
import { iterationEvaluationPath } from '../../src/goal/loop-events.js';
import { readLoopStatus } from '../../src/goal/loop-status.js';
import { writeVerdict } from '../../src/goal/verdict-writer.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import {
  allPass,
  expectStop,
  fileExists,
  goalJson,
  harness,
  judge,
  PATHS,
  passed,
  RUN,
  runFile,
  writes,
} from './helpers.js';

// The protocol as functions a host calls: stamp a verdict right, read the loop's status, read any iteration's evaluation.

describe('writeVerdict', () => {
  it('answers an ask_user stop: stamped with the next iteration, consumed by the next run', async () => {
    const h = harness({ [runFile('goal.json')]: goalJson([judge('design', ['b'])]) });
    expectStop(await h.loop(allPass()).run(), 'ask_user', 4);
    const written = await writeVerdict({
      fs: h.fs,
      runDir: RUN,
      criterionId: 'design',
      verdict: 'PASS',
      judge: 'human',
    });
    expect(written).toMatchObject({ criterion_id: 'design', verdict: 'PASS', iteration: 2 });
    expectStop(await h.loop(allPass()).run(), 'complete', 0);
  });

  it('keeps the verdicts already in the file, whatever shape it had', async () => {
    const h = harness({ [runFile('goal-verdict.json')]: JSON.stringify({ criterion_id: 'x', verdict: 'FAIL' }) });
    await writeVerdict({ fs: h.fs, runDir: RUN, criterionId: 'y', verdict: 'PASS' });
    const file = JSON.parse((await h.fs.readText(PATHS.verdicts)) ?? '{}') as { verdicts: unknown[] };
    expect(file.verdicts).toEqual([
      { criterion_id: 'x', verdict: 'FAIL' },
      { criterion_id: 'y', verdict: 'PASS', iteration: 1 },
    ]);
  });

  it("keeps the file's other keys (a $schema, an owner) where they were, and the verdicts' keys as written", async () => {
    const held = {
      $schema: '../goal-verdict.schema.json',
      owner: 'team-a',
      verdicts: [{ verdict: 'FAIL', criterion_id: 'x', note: 1 }],
      z: true,
    };
    const h = harness({ [runFile('goal-verdict.json')]: JSON.stringify(held) });
    await writeVerdict({ fs: h.fs, runDir: RUN, criterionId: 'y', verdict: 'PASS' });
    const text = (await h.fs.readText(PATHS.verdicts)) ?? '';
    expect(Object.keys(JSON.parse(text))).toEqual(['$schema', 'owner', 'verdicts', 'z']);
    expect(JSON.parse(text)).toEqual({
      ...held,
      verdicts: [...held.verdicts, { criterion_id: 'y', verdict: 'PASS', iteration: 1 }],
    });
    expect(text).toContain('"verdict": "FAIL",\n      "criterion_id": "x"');
  });

  it('leaves a file the loop reads no verdicts from as it is, INVALID_CONTRACT naming where; keeps a __proto__ key', async () => {
    for (const [held, path] of [
      ['{"$schema": "s", "verdicts": "none yet"}', ['verdicts']],
      ['{"verdicts": null}', ['verdicts']],
      ['42', []],
      ['"x"', []],
    ] as const) {
      const h = harness({ [runFile('goal-verdict.json')]: held });
      await expect(writeVerdict({ fs: h.fs, runDir: RUN, criterionId: 'y', verdict: 'PASS' })).rejects.toMatchObject({
        code: 'INVALID_CONTRACT',
        issues: [{ path }],
      });
      expect(await h.fs.readText(PATHS.verdicts)).toBe(held);
    }
    const h = harness({ [runFile('goal-verdict.json')]: '{"__proto__": {"x": 1}, "verdicts": []}' });
    await writeVerdict({ fs: h.fs, runDir: RUN, criterionId: 'y', verdict: 'PASS' });
    const text = (await h.fs.readText(PATHS.verdicts)) ?? '';
    expect(Object.keys(JSON.parse(text))).toEqual(['__proto__', 'verdicts']);
    expect(({} as { x?: unknown }).x).toBeUndefined();
  });

  it('stamps the running iteration while one runs, and refuses to overwrite a file that is not JSON', async () => {
    const h = harness({ [runFile('goal.json')]: goalJson([judge('design')]) });
    let stamped: number | undefined;
    const runner = createScriptedStageRunner({
      a: passed,
      b: async () => {
        stamped = (await writeVerdict({ fs: h.fs, runDir: RUN, criterionId: 'design', verdict: 'PASS' })).iteration;
        return passed;
      },
      c: passed,
    });
    expectStop(await h.loop(runner).run(), 'complete', 0);
    expect(stamped).toBe(1);
    await h.fs.writeText(PATHS.verdicts, '{ not json');
    await expect(writeVerdict({ fs: h.fs, runDir: RUN, criterionId: 'design', verdict: 'PASS' })).rejects.toMatchObject(
      {
        code: 'INVALID_CONTRACT',
      },
    );
    expect(await h.fs.readText(PATHS.verdicts)).toBe('{ not json');
  });
});

describe('readLoopStatus and iterations/<n>/evaluation.json', () => {
  it('reads an empty run directory as no loop', async () => {
    const h = harness();
    expect(await readLoopStatus({ fs: h.fs, runDir: RUN })).toMatchObject({
      exists: false,
      phase: null,
      iteration: 0,
      lastEvaluation: null,
    });
  });

  it('every iteration keeps its whole evaluation; the status shows the stop, the spend and the last one', async () => {
    const h = harness({
      [runFile('goal.json')]: goalJson([fileExists('report', 'out/report.json', ['b'], { run_relative: true })]),
    });
    const runner = createScriptedStageRunner({
      a: { status: 'passed', costUsd: 0.5 },
      b: [passed, writes('out/report.json', () => ({ ok: true }))],
      c: passed,
    });
    expectStop(await h.loop(runner).run(), 'complete', 0);
    const first = JSON.parse((await h.fs.readText(iterationEvaluationPath(RUN, 1))) ?? 'null');
    expect(first).toMatchObject({ status: 'RETRY', iteration: 1, recommendedRerunStages: ['b'] });
    expect(first.criteria).toEqual([expect.objectContaining({ id: 'report', status: 'FAIL' })]);
    const second = JSON.parse((await h.fs.readText(iterationEvaluationPath(RUN, 2))) ?? 'null');
    expect(second).toMatchObject({ status: 'PASS', iteration: 2 });
    const status = await readLoopStatus({ fs: h.fs, runDir: RUN });
    expect(status).toMatchObject({
      exists: true,
      goalId: 'test-goal',
      iteration: 2,
      phase: 'stopped',
      stop: { stoppedOn: 'complete', iteration: 2 },
      session: { index: 1, iterations: 2, maxIterations: 3 },
      spentUsd: 0.5,
      pendingStages: [],
    });
    expect(status.lastEvaluation).toEqual(second);
  });
});

describe('protocol guards', () => {
  it('writeVerdict refuses a criterion the goal does not have (a typo would wait unused), naming the judges', async () => {
    const h = harness({ [runFile('goal.json')]: goalJson([judge('design-review')]) });
    await expect(
      writeVerdict({ fs: h.fs, runDir: RUN, criterionId: 'design-reveiw', verdict: 'PASS' }),
    ).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringContaining('design-review') });
    expect(await h.fs.readText(PATHS.verdicts)).toBeNull();
  });

  it('readLoopStatus says what paused an open session (an abort), and nothing while none did', async () => {
    const h = harness();
    const controller = new AbortController();
    controller.abort();
    await h.loop(allPass(), { signal: controller.signal }).run();
    const status = await readLoopStatus({ fs: h.fs, runDir: RUN });
    expect(status.stop).toBeNull();
    expect(status.paused).toMatchObject({ stoppedOn: 'aborted' });
    expectStop(await h.loop(allPass()).run(), 'complete', 0);
    expect((await readLoopStatus({ fs: h.fs, runDir: RUN })).paused).toBeNull();
  });
});
