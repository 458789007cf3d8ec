import { describe, expect, it } from 'vitest';
import { readLoopStatus } from '../../src/goal/loop-status.js';
import type { StageContext } from '../../src/goal/stage-runner.js';
import { writeVerdict } from '../../src/goal/verdict-writer.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import {
  expectStop,
  fileExists,
  goalJson,
  harness,
  judge,
  metricFile,
  passed,
  RUN,
  runFile,
  writes,
} from './helpers.js';

// A human is asked once: the judge waits while anything else would rerun, and a verdict holds while what it judges
// stands. Stage c plays the feedback stage; a critical finding there names stage b.

const FEEDBACK = 'artifacts/stages/c/feedback.json';
const CRITICAL = { id: 'ARCH-1', severity: 'CRITICAL', remediation: { agent_to_rerun: 'b' } };
const GOAL = goalJson([
  fileExists('out', 'out/a.json', ['a'], { run_relative: true }),
  {
    id: 'no-criticals',
    kind: 'metric_threshold',
    source: 'feedback',
    metric: 'summary.critical_count',
    operator: '==',
    value: 0,
    rerun_stages: ['c'],
  },
  judge('design', ['b']),
]);

// The review finds a critical issue in its first report only (the rerun of b fixes it).
function pipeline() {
  return createScriptedStageRunner({
    a: writes('out/a.json', () => ({ ok: true })),
    b: passed,
    c: writes(FEEDBACK, (ctx: StageContext) => {
      const issues = ctx.iteration === 1 ? [CRITICAL] : [];
      return { summary: { critical_count: issues.length }, issues };
    }),
  });
}

// Runs the loop, answering each ask_user with one approval, until it completes; counts what it cost.
async function untilComplete(askJudges: 'last' | 'first') {
  const h = harness({ [runFile('goal.json')]: GOAL });
  const runner = pipeline();
  const options = { feedbackStage: 'c', askJudges, maxIterations: 5 } as const;
  let approvals = 0;
  for (let result = await h.loop(runner, options).run(); ; result = await h.loop(runner, options).run()) {
    if (result.stoppedOn === 'complete') return { approvals, iteration: result.iteration, stages: runner.stageIds() };
    expectStop(result, 'ask_user', 4);
    const status = await readLoopStatus({ fs: h.fs, runDir: RUN });
    expect(status.awaitingVerdicts?.criterionIds).toEqual(['design']);
    const written = await writeVerdict({ fs: h.fs, runDir: RUN, criterionId: 'design', verdict: 'PASS' });
    // What the status tells the human is the stamp writeVerdict uses.
    expect(written.iteration).toBe(status.awaitingVerdicts?.iteration);
    expect(result.reason).toContain(`stamped "iteration": ${written.iteration}`);
    approvals += 1;
    if (approvals > 3) throw new Error('asked too often');
  }
}

describe('judges asked last', () => {
  it('retries the critical finding first, then asks once: one approval and no wasted iteration', async () => {
    const run = await untilComplete('last');
    expect(run).toEqual({ approvals: 1, iteration: 3, stages: ['a', 'b', 'c', 'b', 'c'] });
  });

  it("under askJudges 'first' asks before the rerun, and again after it (rstack-agents' order)", async () => {
    const run = await untilComplete('first');
    expect(run).toEqual({ approvals: 2, iteration: 4, stages: ['a', 'b', 'c', 'b', 'c'] });
  });

  it('reports the waiting judge on the RETRY it deferred to', async () => {
    const h = harness({ [runFile('goal.json')]: GOAL });
    const step = await h.loop(pipeline(), { feedbackStage: 'c' }).step();
    expect(step.evaluation?.status).toBe('RETRY');
    expect(step.evaluation?.recommendedRerunStages).toEqual(['b', 'c']);
    expect(step.evaluation?.deferredJudges.map((judge_) => judge_.criterionId)).toEqual(['design']);
    expect(step.evaluation?.reason).toContain('Judge design is asked once nothing else is rerun.');
  });
});

describe('a verdict judges outputs', () => {
  // m reaches 2 at the second iteration; the judge looks at stage `judged`.
  const run = (judgedStage: string) => {
    const goal = goalJson([metricFile('m', 'out/m.json', '>=', 2, ['a']), judge('design', [judgedStage])]);
    const h = harness({ [runFile('goal.json')]: goal });
    const runner = createScriptedStageRunner({
      a: writes('out/m.json', (ctx) => ({ value: ctx.iteration })),
      b: passed,
      c: passed,
    });
    return { h, runner };
  };

  it('survives a retry of a stage it does not judge', async () => {
    const { h, runner } = run('b');
    await writeVerdict({ fs: h.fs, runDir: RUN, criterionId: 'design', verdict: 'PASS' });
    const result = await h.loop(runner).run();
    expectStop(result, 'complete', 0);
    expect(result.iteration).toBe(2);
    expect(result.evaluation?.claims.consumed[0]?.reason).toContain('still fresh: none of b has run since iteration 1');
  });

  it('is dropped when the stage it judges reran, and the loop asks again', async () => {
    const { h, runner } = run('a');
    await writeVerdict({ fs: h.fs, runDir: RUN, criterionId: 'design', verdict: 'PASS' });
    const result = await h.loop(runner).run();
    expectStop(result, 'ask_user', 4);
    expect(result.iteration).toBe(2);
    expect(result.evaluation?.claims.rejected[0]?.reason).toContain('a reran in iteration 2, after this verdict');
  });

  it('is dropped by a goal change the host accepts', async () => {
    const { h, runner } = run('b');
    await writeVerdict({ fs: h.fs, runDir: RUN, criterionId: 'design', verdict: 'PASS' });
    expectStop(await h.loop(runner, { maxIterations: 1 }).run(), 'max_iterations', 5);
    const changed = goalJson([metricFile('m', 'out/m.json', '>=', 2, ['a']), judge('design', ['b'])], {
      description: 'changed',
    });
    await h.fs.writeText(runFile('goal.json'), changed);
    const result = await h.loop(runner).run();
    expectStop(result, 'ask_user', 4);
    expect(result.evaluation?.claims.rejected[0]?.reason).toContain('the first evaluated under the current goal');
  });
});
