import { execFileSync } from 'node:child_process';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GoalLoop } from '../../src/goal/goal-loop.js';
import { readIterationEvaluation } from '../../src/goal/loop-events.js';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import { expectStop, goalJson, judge, passed, RUN } from './helpers.js';
import { base, root, run, useNodeProject } from './node-project.js';

// goal.json or goal-verdict.json that is there but cannot be read as a regular file, on the real filesystem: the
// goal is invalid (evaluation_error naming the file and why), a verdict file is reported and ignored; never a throw
// out of run() or evaluate().

useNodeProject();

function loop() {
  const runner = createScriptedStageRunner({ build: passed });
  return { goalLoop: new GoalLoop({ fs: createNodeFileSystem(root), runDir: RUN, stages: ['build'], runner }), runner };
}

// Puts something at `name` in the run directory that is not a regular file.
const makers: Record<string, (name: string) => Promise<void>> = {
  'a FIFO': async (name) => void execFileSync('mkfifo', [join(run, name)]),
  'a directory': (name) => mkdir(join(run, name)),
  'a symlink loop': async (name) => {
    await symlink('loop-b', join(run, name));
    await symlink(name, join(run, 'loop-b'));
  },
};
const cases = [
  ['a FIFO', 'ENOTREG: it is a FIFO'],
  ['a directory', 'EISDIR: it is a directory'],
  ['a symlink loop', 'ELOOP'],
] as const;

describe('goal.json that cannot be read', () => {
  it.each(cases)('%s: run() stops evaluation_error naming the file and why, no stage run', async (kind, why) => {
    await makers[kind]?.('goal.json');
    const { goalLoop, runner } = loop();
    const result = await goalLoop.run();
    expectStop(result, 'evaluation_error', 8);
    expect(result.reason).toContain(`goal.json cannot be read: read "${RUN}/goal.json" failed: ${why}`);
    // No goal id was read, so none is named (not the default goal's).
    expect(result.reason.startsWith('The goal could not be read: goal.json cannot be read:')).toBe(true);
    expect(runner.calls).toEqual([]);
  });

  it.each(cases)('%s: evaluate() is ERROR with one unreadable issue at the document', async (kind, why) => {
    await makers[kind]?.('goal.json');
    const evaluation = await loop().goalLoop.evaluate();
    expect(evaluation.status).toBe('ERROR');
    expect(evaluation.issues).toEqual([
      { code: 'unreadable', path: [], message: expect.stringContaining(`"${RUN}/goal.json" failed: ${why}`) },
    ]);
  });

  it('a symlink out of the project is still refused as a run file, never read', async () => {
    await writeFile(join(base, 'outside.json'), goalJson([judge('j')]));
    await symlink(join(base, 'outside.json'), join(run, 'goal.json'));
    const { goalLoop, runner } = loop();
    await expect(goalLoop.run()).rejects.toMatchObject({
      code: 'IO_ERROR',
      message: expect.stringContaining(`The run file ${RUN}/goal.json is refused`),
    });
    await expect(loop().goalLoop.evaluate()).rejects.toMatchObject({ code: 'IO_ERROR' });
    expect(runner.calls).toEqual([]);
  });
});

describe('goal-verdict.json that cannot be read', () => {
  it.each(cases)(
    '%s: reported as an issue naming the file and ignored; the judge waits for a verdict',
    async (kind, why) => {
      await writeFile(join(run, 'goal.json'), goalJson([judge('j')]));
      await makers[kind]?.('goal-verdict.json');
      const evaluation = await loop().goalLoop.evaluate();
      // No stage has run yet: they run first, and the judge waits for them.
      expect(evaluation.status).toBe('RETRY');
      expect(evaluation.deferredJudges.map((deferred) => deferred.criterionId)).toEqual(['j']);
      expect(evaluation.issues).toEqual([
        {
          code: 'unreadable',
          path: [],
          message: expect.stringMatching(
            new RegExp(`^goal-verdict\\.json: read "${RUN}/goal-verdict\\.json" failed: ${why}`),
          ),
        },
      ]);
      const { goalLoop, runner } = loop();
      expectStop(await goalLoop.run(), 'ask_user', 4);
      expect(runner.calls).toHaveLength(1);
    },
  );

  it('a verdict file that replaces the unreadable one is consumed', async () => {
    await writeFile(join(run, 'goal.json'), goalJson([judge('j')]));
    await mkdir(join(run, 'goal-verdict.json'));
    expect((await loop().goalLoop.evaluate()).deferredJudges).toHaveLength(1);
    await rm(join(run, 'goal-verdict.json'), { recursive: true });
    await writeFile(join(run, 'goal-verdict.json'), JSON.stringify({ criterion_id: 'j', verdict: 'PASS' }));
    const evaluation = await loop().goalLoop.evaluate();
    expect(evaluation.issues).toEqual([]);
    expect(evaluation.criteria[0]).toMatchObject({ id: 'j', status: 'PASS' });
  });
});
describe('an iteration evaluation that cannot be read', () => {
  it.each(cases)('%s at iterations/1/evaluation.json is no evaluation, never a throw', async (kind) => {
    await mkdir(join(run, 'iterations', '1'), { recursive: true });
    await makers[kind]?.(join('iterations', '1', 'evaluation.json'));
    expect(await readIterationEvaluation(createNodeFileSystem(root), RUN, 1)).toBeNull();
  });
});
