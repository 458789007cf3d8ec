import { describe, expect, it } from 'vitest';
import type { StageContext } from '../../src/goal/stage-runner.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import { allPass, expectStop, goalJson, harness, judge, passed, runFile, writes } from './helpers.js';

// The verdict protocol through the loop: one judge criterion, `design`, rerunning stage b.

const FEEDBACK = 'artifacts/stages/11-feedback-loop/feedback.json';
const GOAL = { [runFile('goal.json')]: goalJson([judge('design', ['b'])]) };
type Entry = Record<string, unknown>;

// A project with the judge goal, plus files.
const project = (files: Record<string, string> = {}) => harness({ ...GOAL, ...files });

// goal-verdict.json text.
const verdict = (fields: Entry) => JSON.stringify({ criterion_id: 'design', ...fields });

// A runner whose stage c (the feedback stage here) writes feedback.json with goal_evaluation entries built from the context.
function feedbackRunner(entries: (ctx: StageContext) => Entry[]) {
  return createScriptedStageRunner({
    a: passed,
    b: passed,
    c: writes(FEEDBACK, (ctx) => ({
      summary: { critical_count: 0 },
      issues: [],
      goal_evaluation: { goal_id: 'test-goal', iteration: ctx.iteration, criteria: entries(ctx) },
    })),
  });
}

const met = (fields: Entry = {}): Entry => ({
  criterion_id: 'design',
  result: 'met',
  evidence: ['artifacts/review.md'],
  reasoning: 'looks right',
  ...fields,
});
const rejectedReasons = (result: Awaited<ReturnType<ReturnType<ReturnType<typeof harness>['loop']>['run']>>) =>
  (result.evaluation?.claims.rejected ?? []).map((record) => record.reason).join(' | ');

describe('explicit verdicts (goal-verdict.json)', () => {
  it('a verdict stamped with the current iteration closes the judge criterion', async () => {
    const h = project({ [runFile('goal-verdict.json')]: verdict({ verdict: 'PASS', iteration: 1, judge: 'alice' }) });
    const result = await h.loop(allPass()).run();
    expectStop(result, 'complete', 0);
    expect(result.evaluation?.criteria[0]).toMatchObject({ id: 'design', status: 'PASS', verdictSource: 'explicit' });
    expect(result.evaluation?.claims.consumed).toEqual([
      expect.objectContaining({ source: 'explicit', criterionId: 'design' }),
    ]);
  });

  it('the id-less shorthand applies to the only judge criterion', async () => {
    const h = project({ [runFile('goal-verdict.json')]: JSON.stringify({ verdict: 'PASS', iteration: 1 }) });
    expectStop(await h.loop(allPass()).run(), 'complete', 0);
  });

  it.each([
    ['a missing stamp', {}, 'no iteration stamp'],
    ['a stale stamp', { iteration: 0 }, 'older than iteration 1, the first evaluated under the current goal'],
  ])('%s is not fresh inside a loop → ask_user', async (_name, stamp, why) => {
    const h = project({ [runFile('goal-verdict.json')]: verdict({ verdict: 'PASS', ...stamp }) });
    const result = await h.loop(allPass()).run();
    expectStop(result, 'ask_user', 4);
    expect(result.evaluation?.criteria[0]?.status).toBe('PENDING');
    expect(rejectedReasons(result)).toContain(why);
  });

  it('a verdict from an older session is stale in the next one once the stage it judges reran', async () => {
    const h = project({ [runFile('goal-verdict.json')]: verdict({ verdict: 'FAIL', iteration: 1 }) });
    const first = await h.loop(allPass(), { maxIterations: 1 }).run();
    expectStop(first, 'max_iterations', 5);
    const second = await h.loop(allPass()).run();
    expectStop(second, 'ask_user', 4);
    expect(second.iteration).toBe(2);
    expect(rejectedReasons(second)).toContain('stamped 1, and b reran in iteration 2, after this verdict');
  });

  it('ask_user → a human writes a verdict stamped iteration + 1 → run() again → complete', async () => {
    const h = project();
    const runner = allPass();
    const asked = await h.loop(runner).run();
    expectStop(asked, 'ask_user', 4);
    expect(asked.reason).toContain('stamped "iteration": 2');
    await h.fs.writeText(
      runFile('goal-verdict.json'),
      verdict({ verdict: 'PASS', iteration: asked.iteration + 1, judge: 'human' }),
    );
    const done = await h.loop(runner).run();
    expectStop(done, 'complete', 0);
    expect(done).toMatchObject({ iteration: 2, iterations: 1 });
    expect(runner.stageIds()).toEqual(['a', 'b', 'c']);
  });
});

describe('agent verdicts (feedback.json goal_evaluation)', () => {
  it('consumes an entry whose evidence files are present', async () => {
    const h = project({ [runFile('artifacts/review.md')]: '# review' });
    const result = await h.loop(feedbackRunner(() => [met()])).run();
    expectStop(result, 'complete', 0);
    expect(result.evaluation?.criteria[0]).toMatchObject({ status: 'PASS', verdictSource: 'agent' });
    expect(result.evaluation?.claims.consumed[0]?.reason).toContain(
      'Consumed the agent claim met for design (stamped 1',
    );
  });

  it('an evidence path relative to the project root counts too', async () => {
    const h = project({ 'docs/review.md': '# review' });
    expectStop(await h.loop(feedbackRunner(() => [met({ evidence: ['docs/review.md'] })])).run(), 'complete', 0);
  });

  it('a not_met entry recommending block blocks the loop', async () => {
    const h = project({ [runFile('artifacts/review.md')]: '# review' });
    const result = await h.loop(feedbackRunner(() => [met({ result: 'not_met', recommendation: 'block' })])).run();
    expectStop(result, 'blocked', 3);
  });

  it('rejects an entry whose evidence file is missing (ask_user), and says why', async () => {
    const h = project();
    const result = await h.loop(feedbackRunner(() => [met()])).run();
    expectStop(result, 'ask_user', 4);
    expect(rejectedReasons(result)).toContain('evidence "artifacts/review.md" does not exist');
  });

  it('rejects evidence escaping the project with ..', async () => {
    const h = project({ '/outside/review.md': 'secret' });
    const result = await h.loop(feedbackRunner(() => [met({ evidence: ['../../../../outside/review.md'] })])).run();
    expectStop(result, 'ask_user', 4);
    expect(rejectedReasons(result)).toMatch(/escapes the project root with "\.\."/);
  });

  it('rejects evidence that is a symlink leading outside the project', async () => {
    const h = project({ '/outside/review.md': 'secret' });
    await h.fs.symlink('/outside/review.md', runFile('artifacts/review.md'));
    const result = await h.loop(feedbackRunner(() => [met()])).run();
    expectStop(result, 'ask_user', 4);
    expect(result.evaluation?.criteria[0]?.status).toBe('PENDING');
    expect(rejectedReasons(result)).toContain('outside the project root');
  });

  it('rejects an entry without evidence, or with result unknown', async () => {
    const h = project({ [runFile('artifacts/review.md')]: '# review' });
    const noEvidence = await h.loop(feedbackRunner(() => [met({ evidence: [] })])).run();
    expectStop(noEvidence, 'ask_user', 4);
    expect(rejectedReasons(noEvidence)).toContain('lists no evidence');
    const unknown = await project({ [runFile('artifacts/review.md')]: '# review' })
      .loop(feedbackRunner(() => [met({ result: 'unknown' })]))
      .run();
    expectStop(unknown, 'ask_user', 4);
    expect(rejectedReasons(unknown)).toContain('its result is "unknown"');
  });

  it('rejects an entry stamped ahead of the iteration → ask_user', async () => {
    const h = project({ [runFile('artifacts/review.md')]: '# review' });
    const result = await h.loop(feedbackRunner((ctx) => [met({ iteration: ctx.iteration + 1 })])).run();
    expectStop(result, 'ask_user', 4);
    expect(rejectedReasons(result)).toContain('stamped 2, ahead of the current iteration 1');
    expect(result.evaluation?.signals).toContainEqual(
      expect.objectContaining({ kind: 'agent_stamp_ahead', source: 'design' }),
    );
  });

  it('rejects conflicting duplicate entries for one criterion', async () => {
    const h = project({ [runFile('artifacts/review.md')]: '# review' });
    const result = await h.loop(feedbackRunner(() => [met(), met({ result: 'not_met' })])).run();
    expectStop(result, 'ask_user', 4);
    expect(rejectedReasons(result)).toContain('conflicting duplicate entries');
  });
});

describe('the explicit pool beats the agent pool', () => {
  it('an explicit PASS wins over an evidenced agent not_met', async () => {
    const h = project({
      [runFile('artifacts/review.md')]: '# review',
      [runFile('goal-verdict.json')]: verdict({ verdict: 'PASS', iteration: 1 }),
    });
    const result = await h.loop(feedbackRunner(() => [met({ result: 'not_met' })])).run();
    expectStop(result, 'complete', 0);
    expect(result.evaluation?.criteria[0]).toMatchObject({ status: 'PASS', verdictSource: 'explicit' });
    expect(rejectedReasons(result)).toContain('an explicit verdict decides design');
  });

  it("an explicit FAIL wins over an evidenced agent met, and its rerun stages replace the criterion's", async () => {
    const h = project({
      [runFile('artifacts/review.md')]: '# review',
      [runFile('goal-verdict.json')]: verdict({ verdict: 'FAIL', iteration: 1, recommended_rerun_stages: ['a'] }),
    });
    const runner = feedbackRunner(() => [met()]);
    const result = await h.loop(runner, { maxIterations: 1 }).run();
    expectStop(result, 'max_iterations', 5);
    expect(result.evaluation?.criteria[0]).toMatchObject({
      status: 'FAIL',
      verdictSource: 'explicit',
      rerunStages: ['a'],
    });
    expect(result.evaluation?.recommendedRerunStages).toEqual(['a']);
  });
});
