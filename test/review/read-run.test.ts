// Reading a run: the iteration stamp, file_exists checks per criterion, unreadable inputs, rstack's summary path.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadGoalText } from '../../src/goal/goal-source.js';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import { SDLC_STAGES } from '../../src/pipeline/stage-presets.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import { REVIEW_CONTRACT_SLOTS } from '../../src/review/core/contract-slots.js';
import { readRunInputs } from '../../src/review/read-run.js';
import { runConsistencyReview } from '../../src/review/run-review.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { cleanRun } from './fixtures.js';

const RUN = 'runs/r1';
const NOW = '2025-01-31T12:00:00.000Z';

// Writes the clean run's contracts at their canonical paths.
async function writeClean(fs: FileSystem): Promise<void> {
  const run = cleanRun();
  for (const slot of REVIEW_CONTRACT_SLOTS)
    await fs.writeText(`${RUN}/${slot.canonicalPath}`, JSON.stringify(run[slot.key]));
}

// A goal.json with file_exists criteria.
function goal(criteria: { id: string; path: string; run_relative: boolean }[]): string {
  return JSON.stringify({
    schema_version: 1,
    goal_id: 'g',
    criteria: criteria.map((criterion) => ({ kind: 'file_exists', ...criterion })),
  });
}

describe('readRunInputs', () => {
  it('never stamps ahead of the latest loop_iteration_started, whatever iteration the caller passes', async () => {
    const fs = createMemoryFileSystem();
    await writeClean(fs);
    await fs.writeText(
      `${RUN}/goal.json`,
      goal([{ id: 'plan', path: 'artifacts/stages/04-planning/plan.json', run_relative: true }]),
    );
    expect((await readRunInputs(fs, RUN, { iteration: 3 })).iteration).toBe(3);
    await fs.writeText(
      `${RUN}/events.jsonl`,
      `${JSON.stringify({ ts: NOW, type: 'loop_iteration_started', iteration: 2, max_iterations: 5, goal_id: 'g' })}\n`,
    );
    expect((await readRunInputs(fs, RUN)).iteration).toBe(2);
    expect((await readRunInputs(fs, RUN, { iteration: 9 })).iteration).toBe(2);
    expect((await readRunInputs(fs, RUN, { iteration: 1 })).iteration).toBe(1);
    expect((await readRunInputs(fs, RUN, { iteration: null })).iteration).toBeNull();
    const { report, taskId } = await runConsistencyReview({ fs, runDir: RUN, now: NOW, iteration: 9 });
    expect(report.goal_evaluation.iteration).toBe(2);
    expect(report.goal_evaluation.criteria.map((entry) => entry.iteration)).toEqual([2]);
    expect(taskId).toBe('11-feedback-loop-i2');
  });

  it('checks each file_exists criterion against its own base, keyed by criterion id, so evidence always exists', async () => {
    const fs = createMemoryFileSystem();
    await writeClean(fs);
    await fs.writeText('x.json', '{}');
    await fs.writeText(
      `${RUN}/goal.json`,
      goal([
        { id: 'in-run', path: 'x.json', run_relative: true },
        { id: 'at-root', path: 'x.json', run_relative: false },
      ]),
    );
    expect((await readRunInputs(fs, RUN)).fileChecks).toEqual(
      new Map([
        ['in-run', { exists: false }],
        ['at-root', { exists: true }],
      ]),
    );
    const { report } = await runConsistencyReview({ fs, runDir: RUN, now: NOW });
    expect(report.goal_evaluation.criteria.map((entry) => [entry.criterion_id, entry.result, entry.evidence])).toEqual([
      ['in-run', 'unknown', []],
      ['at-root', 'met', ['x.json']],
    ]);
  });

  it('reads goal.json as the loop does: rerun stages checked against the pipeline it is told, unchecked otherwise', async () => {
    const fs = createMemoryFileSystem();
    const text = JSON.stringify({
      schema_version: 1,
      goal_id: 'g',
      criteria: [{ id: 'c', kind: 'file_exists', path: 'x.json', rerun_stages: ['99-custom'] }],
    });
    await fs.writeText(`${RUN}/goal.json`, text);
    const loaded = loadGoalText(text, SDLC_STAGES);
    expect(loaded.ok).toBe(false);
    expect(await readRunInputs(fs, RUN, { stages: SDLC_STAGES })).toMatchObject({
      goal: null,
      goalIssues: loaded.ok ? [] : loaded.issues,
    });
    expect((await readRunInputs(fs, RUN, { stages: SDLC_STAGES })).goalIssues.map((issue) => issue.code)).toEqual([
      'unknown_stage',
    ]);
    expect(await readRunInputs(fs, RUN, { stages: ['99-custom'] })).toMatchObject({
      goal: { goal_id: 'g' },
      goalIssues: [],
    });
    expect(await readRunInputs(fs, RUN)).toMatchObject({ goal: { goal_id: 'g' }, goalIssues: [] });
    expect(await readRunInputs(createMemoryFileSystem(), RUN)).toMatchObject({ goal: null, goalIssues: [] });
  });

  it("reads rstack-agents' 10-summary output at artifacts/summary.json instead of reporting it NOT FOUND", async () => {
    const fs = createMemoryFileSystem();
    await fs.writeText(
      `${RUN}/artifacts/summary.json`,
      JSON.stringify({ project_name: 'x', pipeline_complete: true, status: 'PASS' }),
    );
    const { report } = await runConsistencyReview({ fs, runDir: RUN, now: NOW });
    expect(
      report.issues.filter((issue) => issue.source_agent === '10-summary').map((issue) => issue.rule),
    ).not.toContain('contract.missing');
    expect(report.analysis_scope.legacy_paths_used).toEqual(['artifacts/summary.json']);
  });
});

describe('unreadable input on the real filesystem never throws', () => {
  let root = '';
  afterEach(async () => {
    if (root !== '') await rm(root, { recursive: true, force: true });
  });

  it('a directory at a contract path is CRITICAL MALFORMED with the error; at goal.json a goal issue; at manifest.json no manifest', async () => {
    root = await mkdtemp(join(tmpdir(), 'goal-loop-read-run-'));
    const fs = createNodeFileSystem(root);
    await writeClean(fs);
    await rm(join(root, RUN, 'artifacts/stages/07-code/code_report.json'));
    for (const path of ['artifacts/stages/07-code/code_report.json', 'goal.json', 'manifest.json'])
      await mkdir(join(root, RUN, path), { recursive: true });
    const { report } = await runConsistencyReview({ fs, runDir: RUN, now: NOW });
    const [malformed] = report.issues.filter((issue) => issue.rule === 'contract.malformed');
    expect(malformed).toMatchObject({ severity: 'CRITICAL', source_agent: '07-code' });
    expect(malformed?.description).toContain('is a directory, not a regular file');
    expect(report.analysis_scope.contracts_malformed).toEqual(['artifacts/stages/07-code/code_report.json']);
    expect(report.analysis_scope.mode).toBe('greenfield');
    expect(report.goal_evaluation).toMatchObject({ status: 'ASK_USER', criteria: [] });
  });

  it('a file_exists path the OS cannot check is unknown with the reason', async () => {
    root = await mkdtemp(join(tmpdir(), 'goal-loop-read-run-'));
    const fs = createNodeFileSystem(root);
    await writeClean(fs);
    await writeFile(
      join(root, RUN, 'goal.json'),
      goal([
        { id: 'long', path: 'a'.repeat(5000), run_relative: true },
        { id: 'plan', path: 'artifacts/stages/04-planning/plan.json', run_relative: true },
      ]),
    );
    const { report } = await runConsistencyReview({ fs, runDir: RUN, now: NOW });
    const [long, plan] = report.goal_evaluation.criteria;
    expect(long).toMatchObject({ criterion_id: 'long', result: 'unknown', evidence: [] });
    expect(long?.reasoning).toMatch(/could not be checked \(.*ENAMETOOLONG/);
    expect(plan).toMatchObject({ criterion_id: 'plan', result: 'met' });
  });
});
