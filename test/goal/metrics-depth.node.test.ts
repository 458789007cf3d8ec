import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GoalLoopError } from '../../src/errors.js';
import { GoalLoop } from '../../src/goal/goal-loop.js';
import { readLoopStatus } from '../../src/goal/loop-status.js';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import { expectStop, fileExists, goalJson, RUN } from './helpers.js';

// metrics.json nested deeper than the loop can rewrite it with the run's spend: refused before any stage runs, as
// every other metrics.json problem is, never after a stage has spent money the file then cannot record.

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'goal-loop-metrics-depth-'));
  await mkdir(join(root, RUN), { recursive: true });
  await writeFile(join(root, 'out.txt'), 'built');
  await writeFile(join(root, RUN, 'goal.json'), goalJson([fileExists('built', 'out.txt')]));
});
afterEach(() => rm(root, { recursive: true, force: true }));

// A JSON object whose field `field` holds arrays nested `depth` deep (so the document nests depth + 1 levels).
const nested = (field: string, depth: number) =>
  `{"cumulative_cost_usd":0,"${field}":${'['.repeat(depth)}${']'.repeat(depth)}}`;

function loop() {
  const runner = createScriptedStageRunner({ build: { status: 'passed', costUsd: 1 } });
  const goalLoop = new GoalLoop({ fs: createNodeFileSystem(root), runDir: RUN, stages: ['build'], runner });
  return { goalLoop, runner };
}

async function refusal(run: () => Promise<unknown>): Promise<GoalLoopError> {
  const caught = await run().then(
    () => new Error('run() accepted the file'),
    (error: unknown) => error,
  );
  if (caught instanceof GoalLoopError) return caught;
  throw caught;
}

describe('a metrics.json nested too deep to rewrite', () => {
  it.each([
    ['a field 10,000 deep', 'x', 10_000],
    ['a field 5,000 deep', 'deep', 5_000],
    ['a stage_status nested 1,000 deep', 'stage_status', 1_000],
  ])(
    '%s: run() refuses it before any stage, every time, naming the file, the field and the depth',
    async (_, field, depth) => {
      await writeFile(join(root, RUN, 'metrics.json'), nested(field, depth));
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const { goalLoop, runner } = loop();
        const error = await refusal(() => goalLoop.run());
        expect(error.code).toBe('INVALID_CONTRACT');
        expect(error.message).toContain(`${RUN}/metrics.json: its field $.${field} nests more than 1000 levels deep`);
        expect(error.issues).toEqual([expect.objectContaining({ code: 'too_deep', path: [] })]);
        expect(runner.calls).toEqual([]);
      }
    },
  );

  it('evaluate() fails metrics:readable with a BLOCK, and readLoopStatus reports the same issue', async () => {
    await writeFile(join(root, RUN, 'metrics.json'), nested('stage_status', 10_000));
    const evaluation = await loop().goalLoop.evaluate();
    expect(evaluation.status).toBe('BLOCK');
    const issue = {
      code: 'too_deep',
      path: [],
      message: expect.stringMatching(/^metrics\.json: its field \$\.stage_status nests more than 1000 levels deep/),
    };
    expect(evaluation.issues).toEqual([issue]);
    expect(evaluation.builtins.find((check) => check.id === 'metrics:readable')).toMatchObject({ status: 'FAIL' });
    expect(evaluation.signals).toContainEqual(expect.objectContaining({ kind: 'metrics_unreadable' }));
    const status = await readLoopStatus({ fs: createNodeFileSystem(root), runDir: RUN });
    expect(status).toMatchObject({ spentUsd: 0, issues: [issue] });
  });

  it('a metrics.json exactly 1000 levels deep is read, and rewritten with the spend keeping its field', async () => {
    await writeFile(join(root, RUN, 'metrics.json'), nested('x', 999));
    const { goalLoop, runner } = loop();
    expectStop(await goalLoop.run(), 'complete', 0);
    expect(runner.calls).toHaveLength(1);
    const written = JSON.parse(await readFile(join(root, RUN, 'metrics.json'), 'utf8')) as Record<string, unknown>;
    expect(written.cumulative_cost_usd).toBe(1);
    expect(JSON.stringify(written.x)).toBe(`${'['.repeat(999)}${']'.repeat(999)}`);
  });
});
