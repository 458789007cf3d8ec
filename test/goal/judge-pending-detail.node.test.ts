import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GoalLoop } from '../../src/goal/goal-loop.js';
import type { GoalLoopOptions } from '../../src/goal/options.js';
import { renderRunReport } from '../../src/goal/run-report.js';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import { expectStop, goalJson, judge, passed, RUN } from './helpers.js';

// What a pending judge criterion's detail tells a human, followed to the letter on the real filesystem.

let base: string;
let root: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'goal-loop-judge-detail-'));
  root = join(base, 'project');
  await mkdir(join(root, RUN), { recursive: true });
  await writeFile(join(root, RUN, 'goal.json'), goalJson([judge('j')]));
});
afterEach(() => rm(base, { recursive: true, force: true }));

const loop = (stages: string[], options: Partial<GoalLoopOptions> = {}) =>
  new GoalLoop({
    fs: createNodeFileSystem(root),
    runDir: RUN,
    stages,
    runner: createScriptedStageRunner(Object.fromEntries(stages.map((stage) => [stage, passed]))),
    ...options,
  });

const judgeDetail = (result: Awaited<ReturnType<GoalLoop['run']>>) =>
  result.evaluation?.criteria.find((criterion) => criterion.id === 'j')?.detail ?? '';

// The iteration a text asks a verdict to be stamped with.
const askedStamp = (text: string): number => {
  const match = /stamped "iteration": (\d+)/.exec(text);
  if (match === null) throw new Error(`no stamp asked for in: ${text}`);
  return Number(match[1]);
};

describe('the detail of a judge criterion without a fresh verdict', () => {
  it('asks for the stamp the stop reason asks for, and a verdict written so closes the criterion', async () => {
    const first = await loop(['a']).run();
    expectStop(first, 'ask_user', 4);
    const detail = judgeDetail(first);
    expect(askedStamp(detail)).toBe(askedStamp(first.reason));
    expect(askedStamp(detail)).toBe(2);
    expect(await renderRunReport({ fs: createNodeFileSystem(root), runDir: RUN })).toContain(detail);

    const verdict = { criterion_id: 'j', verdict: 'PASS', iteration: askedStamp(detail) };
    await writeFile(join(root, RUN, 'goal-verdict.json'), JSON.stringify(verdict));
    const second = await loop(['a']).run();
    expectStop(second, 'complete', 0);
    expect(second.iteration).toBe(2);
  });

  it('names the feedback stage only when the pipeline runs it', async () => {
    const without = judgeDetail(await loop(['a']).run());
    expect(without).not.toContain('11-feedback-loop');
    expect(without).not.toContain('goal_evaluation');

    await rm(join(root, RUN), { recursive: true });
    await mkdir(join(root, RUN), { recursive: true });
    await writeFile(join(root, RUN, 'goal.json'), goalJson([judge('j')]));
    const withStage = judgeDetail(await loop(['a', 'review'], { feedbackStage: 'review' }).run());
    expect(withStage).toContain('or have review emit an evidence-backed goal_evaluation');
  });
});
