import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GoalLoop } from '../../src/goal/goal-loop.js';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import { expectStop, goalJson, judge, passed, RUN } from './helpers.js';

// A misspelt key in goal.json on disk: the loop stops before any stage, naming the key's path and the key it meant.

let base: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'goal-loop-goal-keys-'));
  await mkdir(join(base, RUN), { recursive: true });
});
afterEach(() => rm(base, { recursive: true, force: true }));

describe('goal.json with a misspelt key', () => {
  it('stops with evaluation_error at the key, suggesting the known key', async () => {
    const criteria = [0, 1, 2, 3, 4].map((n) => judge(`j${n}`));
    await writeFile(join(base, RUN, 'goal.json'), goalJson([...criteria, { ...judge('j5'), rerun_stage: ['a'] }]));
    const runner = createScriptedStageRunner({ a: passed });
    const result = await new GoalLoop({ fs: createNodeFileSystem(base), runDir: RUN, stages: ['a'], runner }).run();
    expectStop(result, 'evaluation_error', 8);
    expect(runner.calls).toEqual([]);
    expect(result.reason).toContain(
      '$.criteria[5].rerun_stage: unknown key `rerun_stage`; did you mean `rerun_stages`?',
    );
  });
});
