// The review under the containment rule on the real filesystem: symlinked contracts out of the project are refused
// and never read, outputs through a symlinked folder are refused before anything is written, and a FIFO at a
// contract path is a CRITICAL finding, never a wait or a throw.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isGoalLoopError } from '../../src/errors.js';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import { REVIEW_CONTRACT_SLOTS } from '../../src/review/core/contract-slots.js';
import { createReviewStageRunner } from '../../src/review/review-stage-runner.js';
import { runConsistencyReview } from '../../src/review/run-review.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { initialStageContext } from '../kit/stage-context.js';
import { cleanRun } from './fixtures.js';

const RUN = 'runs/r1';
const NOW = '2025-01-31T12:00:00.000Z';
const SECRET = 'root:x:0:0:secret-line-outside-the-project';
const CODE = 'artifacts/stages/07-code/code_report.json';
const FEEDBACK = 'artifacts/stages/11-feedback-loop/feedback.json';

// Writes the clean run's contracts at their canonical paths.
async function writeClean(fs: FileSystem): Promise<void> {
  const run = cleanRun();
  for (const slot of REVIEW_CONTRACT_SLOTS)
    await fs.writeText(`${RUN}/${slot.canonicalPath}`, JSON.stringify(run[slot.key]));
}

// The malformed issue of one contract path, and the report text.
function malformedAt(report: Awaited<ReturnType<typeof runConsistencyReview>>['report'], path: string) {
  return report.issues.find((issue) => issue.rule === 'contract.malformed' && issue.affected_artifacts.includes(path));
}

describe('the review under the containment rule (real symlinks)', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });
  const tmp = async (): Promise<string> => {
    const dir = await mkdtemp(join(tmpdir(), 'goal-loop-review-contain-'));
    dirs.push(dir);
    return dir;
  };

  it('a contract symlinked out of the project is a CRITICAL refusal with the detail, and never read', async () => {
    const [root, outside] = [await tmp(), await tmp()];
    const fs = createNodeFileSystem(root);
    await writeClean(fs);
    await writeFile(join(outside, 'passwd'), `${SECRET}\n`);
    await rm(join(root, RUN, CODE));
    await symlink(join(outside, 'passwd'), join(root, RUN, CODE));
    const { report } = await runConsistencyReview({ fs, runDir: RUN, now: NOW });
    const refused = malformedAt(report, CODE);
    expect(refused).toMatchObject({ severity: 'CRITICAL', source_agent: '07-code' });
    expect(refused?.description).toContain('outside the project root');
    expect(report.analysis_scope.contracts.find((entry) => entry.path === CODE)?.issues[0]).toMatchObject({
      code: 'refused',
    });
    const written = await readFile(join(root, RUN, FEEDBACK), 'utf8');
    expect(written).not.toContain('secret-line');
    expect(written).not.toContain('root:x:0:0');
  });

  it('a stage folder symlinked out refuses its contract; a goal.json symlinked out is a goal issue', async () => {
    const [root, outside] = [await tmp(), await tmp()];
    const fs = createNodeFileSystem(root);
    await writeClean(fs);
    await mkdir(join(outside, 'testing'));
    await writeFile(join(outside, 'testing/test_report.json'), JSON.stringify(cleanRun().test_report));
    await rm(join(root, RUN, 'artifacts/stages/08-testing'), { recursive: true });
    await symlink(join(outside, 'testing'), join(root, RUN, 'artifacts/stages/08-testing'));
    await writeFile(join(outside, 'goal.json'), JSON.stringify({ schema_version: 1, goal_id: 'g', criteria: [] }));
    await symlink(join(outside, 'goal.json'), join(root, RUN, 'goal.json'));
    const { report } = await runConsistencyReview({ fs, runDir: RUN, now: NOW });
    expect(malformedAt(report, 'artifacts/stages/08-testing/test_report.json')?.description).toContain(
      'outside the project root',
    );
    expect(report.goal_evaluation.status).toBe('ASK_USER');
    expect(report.goal_evaluation.reason).toContain('outside the project root');
  });

  it('outputs through a stage folder symlinked out: an error naming it, nothing written there or anywhere', async () => {
    const [root, outside] = [await tmp(), await tmp()];
    const fs = createNodeFileSystem(root);
    await writeClean(fs);
    await mkdir(join(root, RUN, 'artifacts/stages'), { recursive: true });
    await symlink(outside, join(root, RUN, 'artifacts/stages/11-feedback-loop'));
    const error = await runConsistencyReview({ fs, runDir: RUN, now: NOW }).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(isGoalLoopError(error, 'IO_ERROR')).toBe(true);
    expect((error as Error).message).toContain('11-feedback-loop');
    expect((error as Error).message).toContain('outside the project root');
    expect(await readdir(outside)).toEqual([]);
    expect(await fs.stat(`${RUN}/tasks`)).toBeNull();
    expect(await fs.stat(`${RUN}/artifacts/feedback`)).toBeNull();
  });

  it('a directory where an output file goes: an error naming it before anything is written', async () => {
    const root = await tmp();
    const fs = createNodeFileSystem(root);
    await writeClean(fs);
    await mkdir(join(root, RUN, FEEDBACK), { recursive: true });
    const error = await runConsistencyReview({ fs, runDir: RUN, now: NOW }).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(isGoalLoopError(error, 'IO_ERROR')).toBe(true);
    expect((error as Error).message).toBe(
      `the consistency review wrote nothing: an output path cannot be written ("${RUN}/${FEEDBACK}" is a directory, where the review writes a file)`,
    );
    expect(await fs.stat(`${RUN}/tasks`)).toBeNull();
    expect(await fs.stat(`${RUN}/artifacts/feedback`)).toBeNull();
  });
});

describe('events.jsonl and the stage runner under the containment rule', () => {
  let root = '';
  let outside = '';
  afterEach(async () => {
    for (const dir of [root, outside]) if (dir !== '') await rm(dir, { recursive: true, force: true });
  });

  it('an events.jsonl symlinked out is never read: an IO_ERROR naming it; the stage runner reports failed', async () => {
    root = await mkdtemp(join(tmpdir(), 'goal-loop-review-contain-'));
    outside = await mkdtemp(join(tmpdir(), 'goal-loop-review-outside-'));
    const fs = createNodeFileSystem(root);
    await writeClean(fs);
    await writeFile(
      join(outside, 'events.jsonl'),
      `${JSON.stringify({ type: 'loop_iteration_started', iteration: 9 })}\n`,
    );
    await symlink(join(outside, 'events.jsonl'), join(root, RUN, 'events.jsonl'));
    const error = await runConsistencyReview({ fs, runDir: RUN, now: NOW }).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(isGoalLoopError(error, 'IO_ERROR')).toBe(true);
    expect((error as Error).message).toContain(`${RUN}/events.jsonl`);
    const outcome = await createReviewStageRunner({ clock: { now: () => 0 } }).run(
      '11-feedback-loop',
      initialStageContext(fs, RUN),
    );
    expect(outcome.status).toBe('failed');
    expect(outcome.detail).toContain('outside the project root');
    expect(await fs.stat(`${RUN}/${FEEDBACK}`)).toBeNull();
  });
});

describe('a FIFO as a stage contract', () => {
  let root = '';
  afterEach(async () => {
    if (root !== '') await rm(root, { recursive: true, force: true });
  });

  it('on the real filesystem (mkfifo): the review finishes with a CRITICAL finding naming the file', async () => {
    root = await mkdtemp(join(tmpdir(), 'goal-loop-review-fifo-'));
    const fs = createNodeFileSystem(root);
    await writeClean(fs);
    await rm(join(root, RUN, CODE));
    execFileSync('mkfifo', [join(root, RUN, CODE)]);
    const { report } = await runConsistencyReview({ fs, runDir: RUN, now: NOW });
    const finding = malformedAt(report, CODE);
    expect(finding).toMatchObject({ severity: 'CRITICAL', source_agent: '07-code' });
    expect(finding?.description).toContain('code_report.json');
    expect(finding?.description).toContain('not a regular file');
  }, 10_000);

  it('on the memory filesystem (mkfifo helper): the same finding', async () => {
    const fs = createMemoryFileSystem();
    await writeClean(fs);
    await fs.remove(`${RUN}/${CODE}`);
    await fs.mkfifo(`${RUN}/${CODE}`);
    const { report } = await runConsistencyReview({ fs, runDir: RUN, now: NOW });
    expect(malformedAt(report, CODE)?.description).toContain('not a regular file');
  });
});
