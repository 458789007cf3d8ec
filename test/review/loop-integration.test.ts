import { describe, expect, it } from 'vitest';
import { GoalLoop } from '../../src/goal/goal-loop.js';
import type { StageRunner } from '../../src/index.js';
import { REVIEW_CONTRACT_SLOTS } from '../../src/review/core/contract-slots.js';
import { createReviewStageRunner } from '../../src/review/review-stage-runner.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { cleanRun, list } from './fixtures.js';

const RUN = '.goal-loop/runs/demo';

describe('GoalLoop with the review stage runner', () => {
  it('converges: the first review reports the untested story, the loop reruns 08-testing and the review, the next iteration passes', async () => {
    const fs = createMemoryFileSystem();
    const run = cleanRun();
    for (const slot of REVIEW_CONTRACT_SLOTS)
      if (slot.key !== 'test_report') await fs.writeText(`${RUN}/${slot.canonicalPath}`, JSON.stringify(run[slot.key]));
    const calls: string[] = [];
    let testingRuns = 0;
    const agents: StageRunner = {
      async run(stage, context) {
        calls.push(stage);
        if (stage !== '08-testing') return { status: 'passed' };
        testingRuns += 1;
        const report = structuredClone(run.test_report);
        if (testingRuns === 1) list(report, 'test_cases').splice(1, 1);
        await context.fs.writeText(
          `${context.runDir}/artifacts/stages/08-testing/test_report.json`,
          JSON.stringify(report),
        );
        return { status: 'passed' };
      },
    };
    const clock = createManualClock(Date.UTC(2025, 0, 31));
    const loop = new GoalLoop({
      fs,
      runDir: RUN,
      stages: ['07-code', '08-testing', '11-feedback-loop'],
      runner: createReviewStageRunner({ fallback: agents, clock }),
      clock,
      maxIterations: 3,
    });
    const result = await loop.run();
    expect(result.stoppedOn).toBe('complete');
    expect(result.iteration).toBe(2);
    expect(calls).toEqual(['07-code', '08-testing', '08-testing']);
    const feedback = JSON.parse(
      (await fs.readText(`${RUN}/artifacts/stages/11-feedback-loop/feedback.json`)) ?? '{}',
    ) as { summary: { critical_count: number }; goal_evaluation: { iteration: number } };
    expect(feedback.summary.critical_count).toBe(0);
    expect(feedback.goal_evaluation.iteration).toBe(2);
  });
});
