import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GoalLoop } from '../../src/goal/goal-loop.js';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import { expectStop, fileExists, goalJson, metricFile, passed, RUN } from './helpers.js';

// A criterion path the containment rule refuses FAILs naming the path's JSON path (SPEC §7), and, a FAIL like any
// other, RETRYs (SPEC §5.2) until the no-progress stop: on the real filesystem, two builds, then no_progress.

let base: string;
let root: string;
let outside: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'goal-loop-refused-path-'));
  root = join(base, 'project');
  outside = join(base, 'outside');
  await mkdir(join(root, RUN), { recursive: true });
  await mkdir(outside, { recursive: true });
  await writeFile(join(outside, 'secret.json'), JSON.stringify({ value: 5 }));
});
afterEach(() => rm(base, { recursive: true, force: true }));

async function runWith(criteria: Record<string, unknown>[]) {
  await writeFile(join(root, RUN, 'goal.json'), goalJson(criteria));
  const runner = createScriptedStageRunner({ build: passed });
  const result = await new GoalLoop({
    fs: createNodeFileSystem(root),
    runDir: RUN,
    stages: ['build'],
    runner,
    maxIterations: 5,
  }).run();
  return { result, builds: runner.calls.length };
}

const schemaAt = (schemaPath: string) => ({
  id: 's',
  kind: 'json_schema',
  path: 'out.json',
  schema_path: schemaPath,
  rerun_stages: ['build'],
});

describe('a criterion path refused by containment', () => {
  it.each([
    ['an absolute path outside the project', '$.criteria[0].path', () => fileExists('f', '/etc/passwd', ['build'])],
    [
      'a metric file outside the run dir',
      '$.criteria[0].source.file',
      () => metricFile('m', join(outside, 'secret.json'), '>=', 1, ['build']),
    ],
    ['a schema_path outside the project', '$.criteria[0].schema_path', () => schemaAt(join(outside, 'secret.json'))],
  ])('%s FAILs naming %s, and the no-progress stop ends the loop', async (_, jsonPath, criterion) => {
    await writeFile(join(root, 'out.json'), '{}');
    const { result, builds } = await runWith([criterion()]);
    expectStop(result, 'no_progress', 6);
    expect(builds).toBe(2);
    expect(result.evaluation?.criteria[0]).toMatchObject({ status: 'FAIL', refusedPath: jsonPath });
    expect(result.evaluation?.criteria[0]?.detail.startsWith(`${jsonPath}: `)).toBe(true);
    expect(result.reason).toContain(jsonPath);
  });

  it('a symlink leading out of the project FAILs the same way', async () => {
    await symlink(outside, join(root, 'linked'));
    const { result, builds } = await runWith([fileExists('f', 'linked/secret.json', ['build'])]);
    expectStop(result, 'no_progress', 6);
    expect(builds).toBe(2);
    expect(result.evaluation?.criteria[0]?.detail).toMatch(/^\$\.criteria\[0\]\.path: .*symlink/);
  });

  it('a missing path inside the project still retries its stages', async () => {
    const { result, builds } = await runWith([fileExists('f', 'dist/out.js', ['build'])]);
    expect(result.stoppedOn).toBe('no_progress');
    expect(builds).toBe(2);
    expect(result.evaluation?.criteria[0]?.refusedPath).toBeUndefined();
  });

  it('a relative path escaping with .. FAILs at evaluation, naming its JSON path (the goal itself is valid)', async () => {
    const { result, builds } = await runWith([fileExists('f', '../../../etc/passwd', ['build'])]);
    expectStop(result, 'no_progress', 6);
    expect(builds).toBe(2);
    expect(result.evaluation?.criteria[0]).toMatchObject({ status: 'FAIL', refusedPath: '$.criteria[0].path' });
  });
});
