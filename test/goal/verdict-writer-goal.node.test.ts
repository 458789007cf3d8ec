import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatIssue, type GoalLoopError } from '../../src/errors.js';
import { defineGoal } from '../../src/goal/contracts/define-goal.js';
import { GoalLoop } from '../../src/goal/goal-loop.js';
import { writeVerdict } from '../../src/goal/verdict-writer.js';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import { expectStop, goalJson, judge, passed, RUN } from './helpers.js';

// writeVerdict checks the criterion id against the run's goal: the `goal` option when the goal comes from code,
// else goal.json, on the real filesystem.

let base: string;
let root: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'goal-loop-verdict-goal-'));
  root = join(base, 'project');
  await mkdir(join(root, RUN), { recursive: true });
});
afterEach(() => rm(base, { recursive: true, force: true }));

const GOAL = defineGoal({
  schema_version: 1,
  goal_id: 'release',
  criteria: [
    { id: 'human-ok', kind: 'judge', question: 'Would you ship it?' },
    { id: 'design', kind: 'judge', question: 'Is the design sound?' },
    { id: 'built', kind: 'file_exists', path: 'dist' },
  ],
});
const verdictsFile = () => join(root, RUN, 'goal-verdict.json');
const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

async function refusal(run: () => Promise<unknown>): Promise<GoalLoopError> {
  const error = await run().then(
    () => null,
    (caught: unknown) => caught as GoalLoopError,
  );
  if (error === null) throw new Error('expected a refusal');
  return error;
}

describe('writeVerdict with the goal from code', () => {
  const fs = () => createNodeFileSystem(root);

  it('refuses a misspelt judge id at $.criterionId, suggesting the judge it misspells, and writes nothing', async () => {
    const error = await refusal(() =>
      writeVerdict({ fs: fs(), runDir: RUN, criterionId: 'humn-ok', verdict: 'PASS', goal: GOAL }),
    );
    expect(error.code).toBe('INVALID_OPTIONS');
    expect(error.issues?.map(formatIssue)).toEqual([
      expect.stringMatching(
        /^\$\.criterionId: goal release \(the goal option\) has no criterion "humn-ok"; did you mean `human-ok`\?/,
      ),
    ]);
    expect(error.message).toContain('$.criterionId');
    expect(error.message).toContain('human-ok, design');
    expect(await exists(verdictsFile())).toBe(false);
  });

  it('refuses a criterion that is not a judge, and an id close to none without a suggestion', async () => {
    const notJudge = await refusal(() =>
      writeVerdict({ fs: fs(), runDir: RUN, criterionId: 'built', verdict: 'PASS', goal: GOAL }),
    );
    expect(notJudge.message).toContain('a file_exists criterion, not a judge criterion');
    const far = await refusal(() =>
      writeVerdict({ fs: fs(), runDir: RUN, criterionId: 'performance', verdict: 'PASS', goal: GOAL }),
    );
    expect(far.message).not.toContain('did you mean');
    expect(far.message).toContain('its judge criteria: human-ok, design');
  });

  it('uses the goal option instead of goal.json, and refuses an invalid goal at $.goal', async () => {
    await writeFile(join(root, RUN, 'goal.json'), goalJson([judge('other')]));
    await writeVerdict({ fs: fs(), runDir: RUN, criterionId: 'design', verdict: 'PASS', goal: GOAL });
    const invalid = await refusal(() =>
      writeVerdict({
        fs: fs(),
        runDir: RUN,
        criterionId: 'design',
        verdict: 'PASS',
        goal: { schema_version: 1, criteria: [{ id: 'design', kind: 'judge' }] } as never,
      }),
    );
    expect(invalid.issues?.map((issue) => issue.path)).toEqual([['goal', 'criteria', 0, 'question']]);
    const file = JSON.parse(await readFile(verdictsFile(), 'utf8')) as { verdicts: unknown[] };
    expect(file.verdicts).toEqual([{ criterion_id: 'design', verdict: 'PASS', iteration: 1 }]);
  });

  it('checks the goal option before reading anything: a corrupt loop-state.json does not hide the mistake', async () => {
    await writeFile(join(root, RUN, 'loop-state.json'), '{ not json');
    const error = await refusal(() =>
      writeVerdict({ fs: fs(), runDir: RUN, criterionId: 'humn-ok', verdict: 'PASS', goal: GOAL }),
    );
    expect(error.code).toBe('INVALID_OPTIONS');
    expect(error.issues?.[0]?.path).toEqual(['criterionId']);
  });

  it('answers an ask_user stop of a loop whose goal comes from code', async () => {
    const goal = defineGoal({ schema_version: 1, criteria: [{ id: 'human-ok', kind: 'judge', question: 'Ship?' }] });
    const loop = () =>
      new GoalLoop({
        fs: fs(),
        runDir: RUN,
        stages: ['a'],
        runner: createScriptedStageRunner({ a: passed }),
        goal,
      });
    expectStop(await loop().run(), 'ask_user', 4);
    await writeVerdict({ fs: fs(), runDir: RUN, criterionId: 'human-ok', verdict: 'PASS', goal });
    expectStop(await loop().run(), 'complete', 0);
  });

  it('refuses a runDir where nothing exists at $.runDir (no goal to check against), and writes nothing', async () => {
    const error = await refusal(() =>
      writeVerdict({ fs: fs(), runDir: 'runs/nope', criterionId: 'x', verdict: 'PASS' }),
    );
    expect(error.code).toBe('INVALID_OPTIONS');
    expect(error.issues.map(formatIssue)).toEqual([
      expect.stringMatching(/^\$\.runDir: no run directory "runs\/nope" exists/),
    ]);
    expect(await exists(join(root, 'runs', 'nope'))).toBe(false);
  });

  it('writes ahead of the first run when the goal is given, and into a run without goal.json (unchecked)', async () => {
    await writeVerdict({ fs: fs(), runDir: 'runs/first', criterionId: 'human-ok', verdict: 'PASS', goal: GOAL });
    expect(await exists(join(root, 'runs', 'first', 'goal-verdict.json'))).toBe(true);
    // A folder that holds no run (a parent folder, a fresh one) is refused without the goal option.
    const empty = await refusal(() => writeVerdict({ fs: fs(), runDir: RUN, criterionId: 'x', verdict: 'PASS' }));
    expect(empty.issues.map(formatIssue)).toEqual([
      `$.runDir: "${RUN}" holds no run (no goal.json, loop-state.json, events.jsonl or goal-verdict.json) (so no goal.json to check the criterion against): check runDir, or pass the goal option to write a verdict before the first run`,
    ]);
    expect(await exists(verdictsFile())).toBe(false);
    // A run a loop has written to (its events) takes a verdict for any id: without a goal there is nothing to check.
    await writeFile(join(root, RUN, 'events.jsonl'), '');
    await writeVerdict({ fs: fs(), runDir: RUN, criterionId: 'anything', verdict: 'PASS' });
    expect(await exists(verdictsFile())).toBe(true);
  });
});
