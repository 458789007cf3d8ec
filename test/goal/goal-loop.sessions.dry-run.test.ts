import { describe, expect, it } from 'vitest';
import { createFakeCommandRunner } from '../../src/testing/fake-command-runner.js';
import { allPass, command, goalJson, harness, JUDGE_GOAL, PATHS, runFile, START } from './helpers.js';

describe('evaluate() is a dry run', () => {
  it('writes nothing, takes no lock, and uses the latest iteration from events.jsonl', async () => {
    const h = harness({
      ...JUDGE_GOAL,
      [runFile('goal-verdict.json')]: JSON.stringify({ verdict: 'PASS', iteration: 2 }),
    });
    await h.loop(allPass()).run();
    await h.loop(allPass()).run();
    const before = h.fs.snapshot();
    const evaluation = await h.loop(allPass()).evaluate();
    expect(h.fs.snapshot()).toEqual(before);
    expect(await h.fs.stat(PATHS.lock)).toBeNull();
    expect(evaluation).toMatchObject({ iteration: 2, status: 'PASS' });
  });

  it('reads the iteration context from events.jsonl alone, and has none where no loop ever ran', async () => {
    const started = {
      ts: new Date(START).toISOString(),
      type: 'loop_iteration_started',
      iteration: 4,
      max_iterations: 3,
      goal_id: 'test-goal',
      seq: 0,
      stages: [],
    };
    const verdicts = { [runFile('goal-verdict.json')]: JSON.stringify({ verdict: 'PASS', iteration: 3 }) };
    const logged = await harness({ ...JUDGE_GOAL, ...verdicts, [PATHS.events]: `${JSON.stringify(started)}\n` })
      .loop(allPass())
      .evaluate();
    expect(logged.iteration).toBe(4);
    expect(logged.criteria[0]?.status).toBe('PENDING');
    const fresh = await harness({ ...JUDGE_GOAL, ...verdicts })
      .loop(allPass())
      .evaluate();
    expect(fresh.iteration).toBeNull();
    expect(fresh.criteria[0]?.status).toBe('PASS');
  });

  it('runs command criteria, unless skipCommands makes them PENDING', async () => {
    const h = harness({ [runFile('goal.json')]: goalJson([command('lint', 'npm run lint', ['a'])]) });
    const commands = createFakeCommandRunner({ 'npm run lint': { exitCode: 1 } });
    const skipped = await h.loop(allPass(), { commands }).evaluate({ skipCommands: true });
    expect(skipped.criteria[0]).toMatchObject({ status: 'PENDING' });
    expect(commands.calls).toHaveLength(0);
    const ran = await h.loop(allPass(), { commands }).evaluate();
    expect(ran.criteria[0]).toMatchObject({ status: 'FAIL', observed: 1 });
    expect(commands.calls.map((call) => call.options.cwd)).toEqual([h.fs.root]);
    expect(h.fs.snapshot()).toEqual({ [runFile('goal.json')]: goalJson([command('lint', 'npm run lint', ['a'])]) });
  });
});
