import { describe, expect, it } from 'vitest';
import type { StageContext, StageRunner } from '../../src/index.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import { REVIEW_CONTRACT_SLOTS } from '../../src/review/core/contract-slots.js';
import { createReviewStageRunner } from '../../src/review/review-stage-runner.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { initialStageContext } from '../kit/stage-context.js';
import { cleanRun, list } from './fixtures.js';

const RUN = 'runs/r-7';

// A stage context on `fs` for the run.
function context(fs: FileSystem, signal = new AbortController().signal, iteration = 1): StageContext {
  return initialStageContext(fs, RUN, { signal, iteration });
}

// The goal_evaluation iteration and validation.json status the review wrote for `taskId`.
async function written(fs: FileSystem, taskId: string): Promise<[number | undefined, string]> {
  const feedback = JSON.parse(
    (await fs.readText(`${RUN}/artifacts/stages/11-feedback-loop/feedback.json`)) ?? '{}',
  ) as { goal_evaluation: { iteration?: number } };
  const validation = JSON.parse((await fs.readText(`${RUN}/tasks/${taskId}/validation.json`)) ?? '{}') as {
    status: string;
  };
  return [feedback.goal_evaluation.iteration, validation.status];
}

// Writes the clean run, optionally without TC-002 (US-002 then has no test).
async function seed(fs: FileSystem, withGap: boolean): Promise<void> {
  const run = cleanRun();
  if (withGap) list(run.test_report, 'test_cases').splice(1, 1);
  for (const slot of REVIEW_CONTRACT_SLOTS)
    await fs.writeText(`${RUN}/${slot.canonicalPath}`, JSON.stringify(run[slot.key]));
}

describe('createReviewStageRunner', () => {
  it('passes a consistent run and fails one with a CRITICAL issue, listing its artifacts', async () => {
    const fs = createMemoryFileSystem();
    const runner = createReviewStageRunner({ clock: { now: () => 0 } });
    await seed(fs, false);
    const passed = await runner.run('11-feedback-loop', context(fs));
    expect(passed).toMatchObject({
      status: 'passed',
      detail: 'no CRITICAL findings — consistency score 100/100',
    });
    expect(passed.artifacts).toContain(`${RUN}/artifacts/stages/11-feedback-loop/feedback.json`);
    await seed(fs, true);
    const failed = await runner.run('11-feedback-loop', context(fs));
    expect(failed).toMatchObject({
      status: 'failed',
      detail: '1 CRITICAL finding to fix (US-002 has no test case) — consistency score 90/100',
    });
    const feedback = JSON.parse(
      (await fs.readText(`${RUN}/artifacts/stages/11-feedback-loop/feedback.json`)) ?? '{}',
    ) as { issues: { remediation: { agent_to_rerun: string } }[] };
    expect(feedback.issues[0]?.remediation.agent_to_rerun).toBe('08-testing');
  });

  it('says why it failed before the score: the first CRITICAL findings, a BLOCKED review, never a health band', async () => {
    const fs = createMemoryFileSystem();
    const runner = createReviewStageRunner({ clock: { now: () => 0 } });
    const run = cleanRun();
    list(run.test_report, 'test_cases').splice(0, 3);
    for (const slot of REVIEW_CONTRACT_SLOTS)
      await fs.writeText(`${RUN}/${slot.canonicalPath}`, JSON.stringify(run[slot.key]));
    const failed = await runner.run('11-feedback-loop', context(fs));
    expect(failed.status).toBe('failed');
    expect(failed.detail).toMatch(
      /^\d+ CRITICAL findings to fix \(US-001 has no test case; .+ and \d+ more\) — consistency score \d+(\.\d+)?\/100/,
    );
    expect(failed.detail).not.toMatch(/HEALTHY|NEEDS_ATTENTION/);
    const empty = createMemoryFileSystem();
    const blocked = await runner.run('11-feedback-loop', context(empty));
    expect(blocked.status).toBe('failed');
    expect(blocked.detail).toMatch(/^blocked: most core contracts are missing \(\d+ missing\) — consistency score/);
  });

  it("with failOn 'never' reports passed and leaves the decision to feedback.json", async () => {
    const fs = createMemoryFileSystem();
    await seed(fs, true);
    const outcome = await createReviewStageRunner({ failOn: 'never', clock: { now: () => 0 } }).run(
      '11-feedback-loop',
      context(fs),
    );
    expect(outcome.status).toBe('passed');
  });

  it('delegates other stages to the fallback runner, or fails them without one', async () => {
    const fs = createMemoryFileSystem();
    const fallback: StageRunner = { run: async (stage) => ({ status: 'passed', detail: `ran ${stage}` }) };
    expect(await createReviewStageRunner({ fallback }).run('07-code', context(fs))).toEqual({
      status: 'passed',
      detail: 'ran 07-code',
    });
    expect((await createReviewStageRunner().run('07-code', context(fs))).status).toBe('failed');
  });

  it('reports a filesystem fault or an abort as failed instead of throwing', async () => {
    const fs = createMemoryFileSystem();
    const broken: FileSystem = {
      ...fs,
      root: fs.root,
      readText: fs.readText.bind(fs),
      writeText: async () => Promise.reject(new Error('disk full')),
    };
    const outcome = await createReviewStageRunner({ clock: { now: () => 0 } }).run('11-feedback-loop', context(broken));
    expect(outcome).toMatchObject({ status: 'failed' });
    expect(outcome.detail).toContain('disk full');
    const controller = new AbortController();
    controller.abort();
    expect((await createReviewStageRunner().run('11-feedback-loop', context(fs, controller.signal))).status).toBe(
      'failed',
    );
  });

  it('stamps the iteration the loop passes in its context, never ahead of the latest loop_iteration_started', async () => {
    const fs = createMemoryFileSystem();
    await seed(fs, false);
    const runner = createReviewStageRunner({ clock: { now: () => 0 } });
    expect((await runner.run('11-feedback-loop', context(fs, undefined, 1))).artifacts).toContain(
      `${RUN}/tasks/11-feedback-loop-i1/builder.json`,
    );
    expect(await written(fs, '11-feedback-loop-i1')).toEqual([1, 'PASS']);
    const started = (iteration: number) =>
      JSON.stringify({
        ts: '2025-01-31T12:00:00.000Z',
        type: 'loop_iteration_started',
        iteration,
        max_iterations: 5,
        goal_id: 'g',
      });
    await fs.writeText(`${RUN}/events.jsonl`, `${started(2)}\n${started(3)}\n`);
    await runner.run('11-feedback-loop', context(fs, undefined, 2));
    expect(await written(fs, '11-feedback-loop-i2')).toEqual([2, 'PASS']);
    await runner.run('11-feedback-loop', context(fs, undefined, 7));
    expect(await written(fs, '11-feedback-loop-i3')).toEqual([3, 'PASS']);
  });

  it('fails exactly when validation.json does: a CRITICAL issue or a BLOCKED review', async () => {
    const runner = createReviewStageRunner({ clock: { now: () => 0 } });
    for (const [seeded, status, validation] of [
      [false, 'passed', 'PASS'],
      [true, 'failed', 'FAIL'],
      [null, 'failed', 'FAIL'],
    ] as const) {
      const fs = createMemoryFileSystem();
      if (seeded !== null) await seed(fs, seeded);
      expect((await runner.run('11-feedback-loop', context(fs))).status).toBe(status);
      expect((await written(fs, '11-feedback-loop-i1'))[1]).toBe(validation);
    }
  });
});
