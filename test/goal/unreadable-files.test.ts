import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GoalInput } from '../../src/goal/contracts/goal.js';
import { GoalLoop } from '../../src/goal/goal-loop.js';
import { createNodeFileSystem } from '../../src/node/file-system.js';

// A file named by one criterion that cannot be read fails that criterion only, on the real filesystem.

const RUN = 'runs/r';
let root = '';

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'goal-loop-unreadable-'));
  await mkdir(join(root, RUN), { recursive: true });
  await symlink('loop-b', join(root, RUN, 'loop-a'));
  await symlink('loop-a', join(root, RUN, 'loop-b'));
  await writeFile(join(root, RUN, 'ok.json'), '{"v":1}');
});
afterEach(async () => {
  await chmod(join(root, RUN, 'locked.json'), 0o644).catch(() => undefined);
  await rm(root, { recursive: true, force: true });
});

const loopOn = (criteria: GoalInput['criteria'], stages = ['07-code']) =>
  new GoalLoop({
    fs: createNodeFileSystem(root),
    runDir: RUN,
    stages,
    runner: { run: async () => ({ status: 'passed' }) },
    goal: { schema_version: 1, goal_id: 'unreadable', criteria },
    maxIterations: 2,
  });

const fine = { id: 'fine', kind: 'file_exists', path: 'ok.json', run_relative: true } as const;

describe('a symlink loop named by one criterion', () => {
  it('fails that criterion (file_exists, metric file, json_schema target and schema_path); the others are evaluated', async () => {
    const loop = loopOn([
      { id: 'exists', kind: 'file_exists', path: 'loop-a', run_relative: true },
      { id: 'inside', kind: 'file_exists', path: 'loop-a/x.json', run_relative: true },
      { id: 'metric', kind: 'metric_threshold', source: { file: 'loop-b' }, metric: 'v', operator: '==', value: 1 },
      { id: 'shape', kind: 'json_schema', path: 'loop-a', run_relative: true, schema: { type: 'object' } },
      { id: 'schema', kind: 'json_schema', path: 'ok.json', run_relative: true, schema_path: 'loop-b' },
      fine,
    ]);
    const evaluation = await loop.evaluate();
    const byId = Object.fromEntries(evaluation.criteria.map((criterion) => [criterion.id, criterion]));
    for (const id of ['exists', 'inside', 'metric', 'shape', 'schema']) {
      expect(byId[id]?.status).toBe('FAIL');
      expect(byId[id]?.detail).toMatch(/cannot be read \(.*ELOOP/);
    }
    expect(byId.fine?.status).toBe('PASS');
  });

  it('a run stops on its own terms instead of throwing, and a resume does too', async () => {
    const criteria: GoalInput['criteria'] = [{ id: 'exists', kind: 'file_exists', path: 'loop-a', run_relative: true }];
    const first = await loopOn(criteria).run();
    expect(['max_iterations', 'no_progress']).toContain(first.stoppedOn);
    expect(first.evaluation?.criteria[0]?.status).toBe('FAIL');
    const again = await loopOn(criteria).run();
    expect(again.evaluation?.criteria[0]?.status).toBe('FAIL');
  });

  it('evidence behind an agent claim that loops does not verify; the claim is rejected, not the run', async () => {
    await mkdir(join(root, RUN, 'artifacts/stages/11-feedback-loop'), { recursive: true });
    await writeFile(
      join(root, RUN, 'artifacts/stages/11-feedback-loop/feedback.json'),
      JSON.stringify({
        summary: { critical_count: 0 },
        issues: [],
        goal_evaluation: {
          iteration: 0,
          criteria: [{ criterion_id: 'design', result: 'met', evidence: [`${RUN}/loop-a`] }],
        },
      }),
    );
    const evaluation = await loopOn(
      [{ id: 'design', kind: 'judge', question: 'Good?' }],
      ['11-feedback-loop'],
    ).evaluate();
    expect(evaluation.criteria[0]?.status).toBe('PENDING');
    expect(evaluation.claims.rejected.map((claim) => claim.reason).join(' ')).toContain('ELOOP');
  });
});

describe('a file without read permission', () => {
  it.skipIf(process.getuid?.() === 0)(
    'fails the metric criterion that names it; the others are evaluated',
    async () => {
      await writeFile(join(root, RUN, 'locked.json'), '{"v":1}');
      await chmod(join(root, RUN, 'locked.json'), 0);
      const evaluation = await loopOn([
        {
          id: 'metric',
          kind: 'metric_threshold',
          source: { file: 'locked.json' },
          metric: 'v',
          operator: '==',
          value: 1,
        },
        fine,
      ]).evaluate();
      expect(evaluation.criteria[0]?.status).toBe('FAIL');
      expect(evaluation.criteria[0]?.detail).toContain('cannot be read');
      expect(evaluation.criteria[1]?.status).toBe('PASS');
    },
  );
});
