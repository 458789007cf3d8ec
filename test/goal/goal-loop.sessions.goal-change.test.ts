import { describe, expect, it } from 'vitest';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import {
  abortsDuring,
  allPass,
  expectStop,
  fileExists,
  goalJson,
  harness,
  passed,
  readEvents,
  readState,
  runFile,
  typesOf,
} from './helpers.js';

describe('goal change mid-session', () => {
  const changedGoal = goalJson([fileExists('extra', 'README.md')]);

  it.each([
    [
      'before the next iteration',
      (controller: AbortController) => {
        controller.abort();
        return { a: passed, b: passed, c: passed, signal: controller.signal };
      },
    ],
    [
      'during a stage',
      (controller: AbortController) => ({
        a: passed,
        b: abortsDuring(controller),
        c: passed,
        signal: controller.signal,
      }),
    ],
  ])(
    'aborted %s, then goal.json edited → ask_user with goal_changed; acceptGoalChange continues',
    async (_when, plan) => {
      const h = harness({ [runFile('goal.json')]: goalJson([]), 'README.md': '# hi' });
      const { signal, ...script } = plan(new AbortController());
      expectStop(await h.loop(createScriptedStageRunner(script), { signal }).run(), 'aborted', 130);
      await h.fs.writeText(runFile('goal.json'), changedGoal);

      const asked = await h.loop(allPass()).run();
      expectStop(asked, 'ask_user', 4);
      expect(asked.reason).toContain('Goal changed');
      const changed = (await readEvents(h.fs)).filter((event) => event.type === 'goal_changed');
      expect(changed).toEqual([expect.objectContaining({ accepted: false })]);
      expect((await readState(h.fs))?.phase).not.toBe('stopped');

      const accepted = await h.loop(allPass(), { acceptGoalChange: true }).run();
      expectStop(accepted, 'complete', 0);
      expect(accepted.evaluation?.criteria.map((criterion) => criterion.id)).toEqual(['extra']);
      const all = await readEvents(h.fs);
      expect(
        all
          .filter((event) => event.type === 'goal_changed')
          .map((event) => event.type === 'goal_changed' && event.accepted),
      ).toEqual([false, true]);
      expect(all.at(-1)).toMatchObject({ type: 'loop_completed', iteration: 1 });
    },
  );
});

describe('goal change during a run', () => {
  it('goal.json loosened while a stage runs → ask_user before any evaluation under the new goal', async () => {
    const strict = goalJson([fileExists('report', 'never/there.json', ['b'])]);
    const h = harness({ [runFile('goal.json')]: strict });
    const loosen = async () => {
      await h.fs.writeText(runFile('goal.json'), goalJson([]));
      return passed;
    };
    const result = await h.loop(createScriptedStageRunner({ a: passed, b: loosen, c: passed })).run();
    expectStop(result, 'ask_user', 4);
    const events = await readEvents(h.fs);
    expect(typesOf(events)).toContain('goal_changed');
    expect(typesOf(events)).not.toContain('goal_evaluated');
  });
});
