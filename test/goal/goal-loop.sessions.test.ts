import { describe, expect, it } from 'vitest';
import { GoalLoopError } from '../../src/errors.js';
import { GoalLoop } from '../../src/goal/goal-loop.js';
import { readLatestIterationStarted } from '../../src/goal/loop-events.js';
import type { GoalLoopOptions } from '../../src/goal/options.js';
import { createFakeCommandRunner } from '../../src/testing/fake-command-runner.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import {
  abortsDuring,
  command,
  deferred,
  eventLines,
  expectStop,
  failed,
  fileExists,
  goalJson,
  harness,
  judge,
  PATHS,
  passed,
  RUN,
  readEvents,
  readState,
  runFile,
  START,
  typesOf,
} from './helpers.js';

const allPass = () => createScriptedStageRunner({ a: passed, b: passed, c: passed });
const JUDGE_GOAL = { [runFile('goal.json')]: goalJson([judge('design', ['b'])]) };
const startedIterations = async (h: ReturnType<typeof harness>) =>
  (await readEvents(h.fs)).flatMap((event) => (event.type === 'loop_iteration_started' ? [event.iteration] : []));

describe('sessions and step()', () => {
  it('continues the run-wide iteration counter across sessions', async () => {
    const h = harness(JUDGE_GOAL);
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await h.loop(allPass()).run());
    expect(results.map((result) => [result.stoppedOn, result.iteration, result.iterations])).toEqual([
      ['ask_user', 1, 1],
      ['ask_user', 2, 1],
      ['ask_user', 3, 1],
    ]);
    expect(await startedIterations(h)).toEqual([1, 2, 3]);
    expect((await readState(h.fs))?.session).toMatchObject({ index: 3, started_at_iteration: 2, iterations: 1 });
  });

  it('step() runs exactly one iteration and says what the next one reruns', async () => {
    const h = harness();
    const runner = createScriptedStageRunner({ a: passed, b: [failed, passed], c: passed });
    const first = await h.loop(runner).step();
    expect(first).toMatchObject({ done: false, stoppedOn: null, iteration: 1, rerunStages: ['b'] });
    expect(runner.stageIds()).toEqual(['a', 'b', 'c']);
    expect(await startedIterations(h)).toEqual([1]);
    const second = await h.loop(runner).step();
    expect(second).toMatchObject({ done: true, stoppedOn: 'complete', iteration: 2, iterations: 2 });
    expect(runner.stageIds()).toEqual(['a', 'b', 'c', 'b']);
    expect(await h.fs.readText(PATHS.lock)).toBeNull();
  });
});

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
    expect(logged).toMatchObject({ iteration: 4, status: 'ASK_USER' });
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

describe('the run lock', () => {
  it('a second loop on a locked run rejects with RUN_LOCKED', async () => {
    const h = harness();
    const entered = deferred();
    const release = deferred();
    const runner = createScriptedStageRunner({
      a: passed,
      b: async () => {
        entered.resolve();
        await release.promise;
        return passed;
      },
      c: passed,
    });
    const running = h.loop(runner).run();
    await entered.promise;
    const error = await h
      .loop(allPass())
      .run()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GoalLoopError);
    expect(error).toMatchObject({ code: 'RUN_LOCKED' });
    await expect(h.loop(allPass()).step()).rejects.toMatchObject({ code: 'RUN_LOCKED' });
    release.resolve();
    expectStop(await running, 'complete', 0);
    expect(await h.fs.readText(PATHS.lock)).toBeNull();
  });

  it('takes over a stale lock and logs lock_taken_over; a fresh one stays locked', async () => {
    const lock = (ageMs: number) =>
      JSON.stringify({ owner: 'ghost', pid: 1, heartbeat_at: START - ageMs, heartbeat_iso: '', timeout_ms: 600_000 });
    const fresh = harness({ [PATHS.lock]: lock(60_000) });
    await expect(fresh.loop(allPass()).run()).rejects.toMatchObject({ code: 'RUN_LOCKED' });
    const stale = harness({ [PATHS.lock]: lock(600_001) });
    expectStop(await stale.loop(allPass()).run(), 'complete', 0);
    const events = await readEvents(stale.fs);
    expect(events[0]).toMatchObject({ type: 'lock_taken_over', previous_owner: 'ghost', heartbeat_age_ms: 600_001 });
    expect(await stale.fs.readText(PATHS.lock)).toBeNull();
  });
});

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

describe('events.jsonl', () => {
  it('every line parses with loopEventSchema, goal_id is never empty, seq strictly increases, onEvent sees exactly the log', async () => {
    const h = harness({
      ...JUDGE_GOAL,
      [runFile('goal-verdict.json')]: JSON.stringify({ verdict: 'PASS', iteration: 1 }),
    });
    expectStop(
      await h.loop(createScriptedStageRunner({ a: passed, b: [failed, passed], c: passed })).run(),
      'ask_user',
      4,
    );
    await h.fs.writeText(runFile('goal-verdict.json'), JSON.stringify({ verdict: 'PASS', iteration: 3 }));
    expectStop(await h.loop(allPass()).run(), 'complete', 0);
    const lines = await eventLines(h.fs);
    const events = await readEvents(h.fs);
    expect(events).toHaveLength(lines.length);
    expect(events.every((event) => typeof event.goal_id === 'string' && event.goal_id !== '')).toBe(true);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index));
    expect(h.seen).toEqual(events);
    expect(typesOf(events)).toContain('loop_iteration_retrying_stages');
  });

  it('removes a torn last line before the next append: every line of the log parses, and readers skip a fragment meanwhile', async () => {
    const h = harness();
    await h.loop(allPass()).run();
    const torn = '{"ts":"2025-01-01T00:00:00.000Z","type":"loop_iteration_started","iteration":9';
    await h.fs.appendText(PATHS.events, torn);
    expect(await readLatestIterationStarted(h.fs, PATHS.events)).toBe(1);
    expectStop(await h.loop(allPass()).run(), 'complete', 0);
    const lines = await eventLines(h.fs);
    expect(lines).not.toContain(torn);
    expect(lines.map((line) => JSON.parse(line) as unknown)).toHaveLength(lines.length);
    expect(await readLatestIterationStarted(h.fs, PATHS.events)).toBe(2);
    const events = await readEvents(h.fs);
    expect(events).toHaveLength(lines.length);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, i) => i));
  });

  it('readLatestIterationStarted: null without a log, skips torn and foreign lines', async () => {
    const h = harness();
    expect(await readLatestIterationStarted(h.fs, PATHS.events)).toBeNull();
    const line = (iteration: number) => JSON.stringify({ type: 'loop_iteration_started', iteration });
    await h.fs.writeText(
      PATHS.events,
      `${line(3)}\nnot json\n${JSON.stringify({ type: 'goal_evaluated', iteration: 7 })}\n{"type":"loop_iteration_started","iter`,
    );
    expect(await readLatestIterationStarted(h.fs, PATHS.events)).toBe(3);
  });
});

describe('invalid options', () => {
  const base = (): GoalLoopOptions => ({ fs: harness().fs, runDir: RUN, stages: ['a'], runner: allPass() });
  it.each([
    ['stages', { stages: [] }],
    ['stages', { stages: ['a', 'a'] }],
    ['maxIterations', { maxIterations: 0 }],
    ['maxIterations', { maxIterations: 2.5 }],
    ['budgetUsd', { budgetUsd: -1 }],
    ['runDir', { runDir: '../x' }],
    ['runDir', { runDir: '/abs/run' }],
    ['runner', { runner: {} }],
    ['lockTimeoutMs', { lockTimeoutMs: 0 }],
  ])('rejects a bad %s with INVALID_OPTIONS naming it', (field, override) => {
    const make = () => new GoalLoop({ ...base(), ...(override as Partial<GoalLoopOptions>) });
    expect(make).toThrow(GoalLoopError);
    try {
      make();
    } catch (error) {
      expect(error).toMatchObject({ code: 'INVALID_OPTIONS' });
      expect((error as GoalLoopError).message).toContain(`${field}:`);
      expect((error as GoalLoopError).issues.map((issue) => issue.path[0])).toContain(field);
    }
  });
});
