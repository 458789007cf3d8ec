import { describe, expect, it } from 'vitest';
import { createFakeCommandRunner } from '../../src/testing/fake-command-runner.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import { allPass, command, deferred, expectStop, goalJson, harness, passed, runFile } from './helpers.js';

// What the loop hands on: commands run at the runner's suggested concurrency, a resumed retry's context for the stage,
// and the reason a verdict naming a stage outside the pipeline is rejected.

describe('command concurrency', () => {
  it("defaults to the command runner's suggested concurrency", async () => {
    let running = 0;
    let peak = 0;
    const gate = deferred();
    const slow = async () => {
      running += 1;
      peak = Math.max(peak, running);
      await gate.promise;
      running -= 1;
      return { exitCode: 0 };
    };
    const fake = createFakeCommandRunner([{ match: /^c\d$/, respond: slow }]);
    const commands = Object.assign(fake, { concurrency: 2 });
    const h = harness({
      [runFile('goal.json')]: goalJson(['c1', 'c2', 'c3', 'c4', 'c5'].map((id) => command(id, id))),
    });
    const pending = h.loop(allPass(), { commands }).evaluate();
    await new Promise((resolve) => setTimeout(resolve, 20));
    gate.resolve();
    await pending;
    expect(peak).toBe(2);
  });
});

describe('stage context on resume', () => {
  it('a resumed retry iteration tells the stage which retry it belongs to', async () => {
    const h = harness();
    const controller = new AbortController();
    const reasons: unknown[] = [];
    let bRuns = 0;
    const runner = createScriptedStageRunner({
      a: passed,
      b: async (context) => {
        reasons.push(context.reason);
        bRuns += 1;
        if (bRuns === 1) return { status: 'failed', detail: 'first try' };
        if (bRuns === 2) {
          controller.abort();
          return passed;
        }
        return passed;
      },
      c: passed,
    });
    expectStop(await h.loop(runner, { signal: controller.signal }).run(), 'aborted', 130);
    expectStop(await h.loop(runner).run(), 'complete', 0);
    expect(reasons).toEqual([
      { kind: 'initial' },
      { kind: 'retry', reason: expect.stringContaining('Stage b failed'), criteria: [] },
      { kind: 'resume', retry: { reason: expect.stringContaining('Stage b failed'), criteria: [] } },
    ]);
  });
});

describe('explicit verdicts naming stages outside the pipeline', () => {
  it('are rejected by the evaluation, which says why in its claims', async () => {
    const h = harness({
      [runFile('goal.json')]: goalJson([{ id: 'design', kind: 'judge', question: 'ok?', rerun_stages: ['b'] }]),
      [runFile('goal-verdict.json')]: JSON.stringify({
        criterion_id: 'design',
        verdict: 'FAIL',
        recommended_rerun_stages: ['zz-unknown'],
      }),
    });
    const evaluation = await h.loop(allPass()).evaluate();
    expect(evaluation.criteria[0]?.status).toBe('PENDING');
    expect(evaluation.claims.rejected).toEqual([
      expect.objectContaining({ source: 'explicit', reason: expect.stringContaining('zz-unknown') }),
    ]);
  });
});
