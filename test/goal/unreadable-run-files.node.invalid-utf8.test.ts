import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GoalLoop } from '../../src/goal/goal-loop.js';
import { readLoopStatus } from '../../src/goal/loop-status.js';
import { writeVerdict } from '../../src/goal/verdict-writer.js';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import { expectStop, goalJson, judge, metricFile, passed, RUN } from './helpers.js';
import { root, run, useNodeProject } from './node-project.js';

// Run files whose bytes are not UTF-8, on the real filesystem: goal.json is invalid and a verdict file ignored, each
// naming the byte offset; metrics.json and a goal-verdict.json to add to are refused and kept; never a throw out of
// evaluate().

useNodeProject();

function loop() {
  const runner = createScriptedStageRunner({ build: passed });
  return { goalLoop: new GoalLoop({ fs: createNodeFileSystem(root), runDir: RUN, stages: ['build'], runner }), runner };
}
describe('run files whose bytes are not UTF-8', () => {
  const spoilt = (before: string, after: string) => Buffer.concat([Buffer.from(before), BAD, Buffer.from(after)]);
  const BAD = Buffer.from([0xff, 0xfe, 0xc3]);

  it('goal.json: run() stops evaluation_error naming the byte offset, never a goal id of U+FFFD', async () => {
    await writeFile(join(run, 'goal.json'), spoilt('{"schema_version":1,"goal_id":"', '","criteria":[]}'));
    const { goalLoop, runner } = loop();
    const result = await goalLoop.run();
    expectStop(result, 'evaluation_error', 8);
    expect(result.reason).toContain(
      `read "${RUN}/goal.json" failed: EILSEQ: the file is not valid UTF-8, at byte offset 31 (ff fe c3 22)`,
    );
    expect(result.reason).not.toContain('\ufffd');
    expect(runner.calls).toEqual([]);
  });

  it('goal-verdict.json: reported as unreadable at its byte offset and ignored', async () => {
    await writeFile(join(run, 'goal.json'), goalJson([judge('j')]));
    await writeFile(join(run, 'goal-verdict.json'), spoilt('{"criterion_id":"j","verdict":"PASS","reasoning":"', '"}'));
    const evaluation = await loop().goalLoop.evaluate();
    // No stage has run yet: they run first, and the judge waits for them.
    expect(evaluation.status).toBe('RETRY');
    expect(evaluation.deferredJudges.map((deferred) => deferred.criterionId)).toEqual(['j']);
    expect(evaluation.issues).toEqual([
      { code: 'unreadable', path: [], message: expect.stringContaining('not valid UTF-8, at byte offset 50') },
    ]);
  });

  it('metrics.json: run() refuses it as INVALID_CONTRACT naming the file and the byte, before any stage, and keeps it', async () => {
    await writeFile(join(run, 'goal.json'), goalJson([judge('j')]));
    const bytes = spoilt('{"cumulative_cost_usd":1,"note":"', '"}');
    await writeFile(join(run, 'metrics.json'), bytes);
    const { goalLoop, runner } = loop();
    await expect(goalLoop.run()).rejects.toMatchObject({
      code: 'INVALID_CONTRACT',
      message: expect.stringMatching(
        /metrics\.json is not valid UTF-8 text \(.*at byte offset 33.*\); fix it before running/,
      ),
      issues: [{ code: 'invalid_utf8', path: [] }],
    });
    expect(runner.calls).toEqual([]);
    expect(await readFile(join(run, 'metrics.json'))).toEqual(bytes);
    // The status reports it with the same code, never a throw.
    const status = await readLoopStatus({ fs: createNodeFileSystem(root), runDir: RUN });
    expect(status.issues).toEqual([expect.objectContaining({ code: 'invalid_utf8', path: [] })]);
  });

  it('goal-verdict.json: writeVerdict refuses to add to it (INVALID_CONTRACT, fix or remove it) and keeps it', async () => {
    await writeFile(join(run, 'goal.json'), goalJson([judge('j')]));
    const bytes = spoilt('[{"criterion_id":"j","verdict":"FAIL","reasoning":"', '"}]');
    await writeFile(join(run, 'goal-verdict.json'), bytes);
    const write = writeVerdict({ fs: createNodeFileSystem(root), runDir: RUN, criterionId: 'j', verdict: 'PASS' });
    await expect(write).rejects.toMatchObject({
      code: 'INVALID_CONTRACT',
      message: expect.stringMatching(
        /goal-verdict\.json is not valid UTF-8 text \(.*byte offset 51.*\); fix or remove it first\./,
      ),
    });
    expect(await readFile(join(run, 'goal-verdict.json'))).toEqual(bytes);
  });

  it('goal.json: writeVerdict writes without checking the criterion id (the loop reports the goal)', async () => {
    await writeFile(join(run, 'goal.json'), spoilt('{"schema_version":1,"goal_id":"', '","criteria":[]}'));
    const written = await writeVerdict({
      fs: createNodeFileSystem(root),
      runDir: RUN,
      criterionId: 'j',
      verdict: 'PASS',
    });
    expect(written).toMatchObject({ criterion_id: 'j', verdict: 'PASS' });
    expect(JSON.parse(await readFile(join(run, 'goal-verdict.json'), 'utf8'))).toMatchObject({
      verdicts: [{ criterion_id: 'j' }],
    });
  });

  it('a byte order mark is kept, so goal.json that starts with one is not JSON, as before', async () => {
    await writeFile(join(run, 'goal.json'), `\ufeff${goalJson([judge('j')])}`);
    const result = await loop().goalLoop.run();
    expectStop(result, 'evaluation_error', 8);
    expect(result.reason).toContain('Not valid JSON: the text starts with a byte order mark (U+FEFF)');
  });

  it('feedback.json and a metric source: malformed, never a throw out of evaluate()', async () => {
    const feedbackDir = join(run, 'artifacts', 'stages', '11-feedback-loop');
    await mkdir(feedbackDir, { recursive: true });
    await writeFile(join(feedbackDir, 'feedback.json'), spoilt('{"summary":{"critical_count":0},"x":"', '"}'));
    await writeFile(join(run, 'm.json'), spoilt('{"value":"', '"}'));
    const metric = metricFile('m', 'm.json', '>=', 1);
    await writeFile(join(run, 'goal.json'), goalJson([metric]));
    const goalLoop = new GoalLoop({
      fs: createNodeFileSystem(root),
      runDir: RUN,
      stages: ['build', '11-feedback-loop'],
      runner: createScriptedStageRunner({ build: passed, '11-feedback-loop': passed }),
    });
    const evaluation = await goalLoop.evaluate();
    expect(evaluation.status).toBe('RETRY');
    expect(evaluation.criteria[0]).toMatchObject({ status: 'PENDING' });
    expect(evaluation.criteria[0]?.detail).toContain('not valid UTF-8');
    expect(JSON.stringify(evaluation)).toContain('feedback.json');
  });
});
