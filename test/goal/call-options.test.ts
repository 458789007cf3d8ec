import { describe, expect, it } from 'vitest';
import { parseVerdictFile } from '../../src/contracts.js';
import type { CommandStageRunnerOptions, StageContext, WriteVerdictOptions } from '../../src/index.js';
import { createCommandStageRunner, parseGoal, readLoopStatus, renderRunReport, writeVerdict } from '../../src/index.js';
import { createFakeCommandRunner, createMemoryFileSystem, createScriptedStageRunner } from '../../src/testing.js';
import { expectUnknownKey, refusal, refusedPaths } from '../kit/option-refusal.js';
import { initialStageContext } from '../kit/stage-context.js';
import { goalJson, harness, judge, PATHS, passed, RUN, runFile } from './helpers.js';

// A stage context for iteration 1 of the run.
const context = (fs: StageContext['fs']): StageContext => initialStageContext(fs, RUN);

describe('createCommandStageRunner options', () => {
  const commands = createFakeCommandRunner({ 'node code.mjs': { exitCode: 0, stdoutTail: 'done\n' } });
  it.each([
    ['timeoutMS', 'timeoutMs'],
    ['stage', 'stages'],
    ['command', 'commands'],
    ['fallbak', 'fallback'],
    ['CWD', 'cwd'],
  ])('refuses %s when the runner is made, suggesting %s', async (key, suggestion) => {
    const options = { commands, stages: {}, [key]: 1 } as CommandStageRunnerOptions;
    const error = await expectUnknownKey(() => createCommandStageRunner(options), [key], suggestion);
    expect(error.message).toContain('createCommandStageRunner');
  });

  it.each<[object, (string | number)[][]]>([
    [{ stages: {} }, [['commands']]],
    [{ commands, stages: ['node code.mjs'] }, [['stages']]],
    [{ commands, stages: { '07-code': '' } }, [['stages', '07-code']]],
    [{ commands, stages: { '07-code': 7 } }, [['stages', '07-code']]],
    [{ commands, stages: {}, cwd: 'project' }, [['cwd']]],
    [{ commands, stages: {}, timeoutMs: 0 }, [['timeoutMs']]],
    [{ commands, stages: {}, timeoutMs: '10s' }, [['timeoutMs']]],
    [{ commands, stages: {}, fallback: () => passed }, [['fallback']]],
  ])('refuses %j at each path', async (options, paths) => {
    expect(await refusedPaths(() => createCommandStageRunner(options as CommandStageRunnerOptions))).toEqual(paths);
  });

  it('runs with every option given', async () => {
    const fs = createMemoryFileSystem();
    const options: Required<CommandStageRunnerOptions> = {
      commands,
      stages: { '07-code': 'node code.mjs' },
      cwd: '/srv/app',
      timeoutMs: Number.POSITIVE_INFINITY,
      fallback: createScriptedStageRunner({ '08-testing': passed }),
    };
    const runner = createCommandStageRunner(options);
    expect(await runner.run('07-code', context(fs))).toEqual({ status: 'passed', detail: 'done' });
    expect(await runner.run('08-testing', context(fs))).toEqual(passed);
    expect(commands.calls.at(-1)?.options).toMatchObject({ cwd: '/srv/app', timeoutMs: Number.POSITIVE_INFINITY });
  });
});

describe('writeVerdict options', () => {
  it.each([
    ['reasonning', 'reasoning'],
    ['recomendation', 'recommendation'],
    ['criterion_id', 'criterionId'],
    ['rundir', 'runDir'],
    ['recommendedRerunStage', 'recommendedRerunStages'],
  ])('refuses %s, suggesting %s, and writes nothing', async (key, suggestion) => {
    const h = harness({ [runFile('goal.json')]: goalJson([judge('design')]) });
    const before = h.fs.snapshot();
    const options = { fs: h.fs, runDir: RUN, criterionId: 'design', verdict: 'FAIL', [key]: 'block' };
    const error = await expectUnknownKey(() => writeVerdict(options as WriteVerdictOptions), [key], suggestion);
    expect(error.message).toContain('writeVerdict');
    expect(h.fs.snapshot()).toEqual(before);
  });

  it('refuses wrong values at their camelCase paths, writing nothing', async () => {
    const h = harness({ [runFile('goal.json')]: goalJson([judge('design')]) });
    const wrong = { fs: h.fs, runDir: RUN, criterionId: '', verdict: 'pass', score: '9', recommendedRerunStages: 'b' };
    expect(await refusedPaths(() => writeVerdict(wrong as never))).toEqual([
      ['criterionId'],
      ['verdict'],
      ['score'],
      ['recommendedRerunStages'],
    ]);
    expect(await h.fs.stat(PATHS.verdicts)).toBeNull();
  });

  it('writes a verdict with every option given', async () => {
    const h = harness({ [runFile('goal.json')]: goalJson([judge('design')]) });
    const options: Required<WriteVerdictOptions> = {
      fs: h.fs,
      runDir: RUN,
      criterionId: 'design',
      verdict: 'FAIL',
      judge: 'human:architect',
      reasoning: 'the cache is missing',
      score: 0.4,
      recommendation: 'retry',
      recommendedRerunStages: ['b'],
      goal: { schema_version: 1, criteria: [{ id: 'design', kind: 'judge', question: 'Is it sound?' }] },
      stages: ['a', 'b', 'c'],
    };
    expect(await writeVerdict(options)).toMatchObject({
      reasoning: 'the cache is missing',
      recommended_rerun_stages: ['b'],
    });
  });
});

describe('renderRunReport options', () => {
  it('refuses a misspelt option and a wrong value, and renders with valid ones', async () => {
    const fs = createMemoryFileSystem();
    const error = await refusal(() => renderRunReport({ fs, rundir: RUN } as never));
    expect(error.issues.map((issue) => issue.path)).toEqual([['rundir'], ['runDir']]);
    expect(error.message).toContain(
      'Invalid renderRunReport options: $.rundir: unknown option `rundir`; did you mean `runDir`?',
    );
    const missing = await refusal(() => renderRunReport({ fs } as never));
    expect(missing.issues.map((issue) => issue.path)).toEqual([['runDir']]);
    expect(await refusedPaths(() => renderRunReport({ fs: null, runDir: RUN } as never))).toEqual([['fs']]);
    await expectUnknownKey(() => renderRunReport({ fs, runDir: RUN, format: 'md' } as never), ['format']);
    expect(await renderRunReport({ fs, runDir: RUN })).toContain('#');
  });
});

describe('parseGoal and parseVerdictFile options', () => {
  const goal = JSON.parse(goalJson([judge('design', ['b'])])) as unknown;
  it('refuses a misspelt stages option instead of skipping the stage check', async () => {
    await expectUnknownKey(() => parseGoal(goal, { stage: ['a'] } as never), ['stage'], 'stages');
    await expectUnknownKey(() => parseVerdictFile([], { Stages: ['a'] } as never), ['Stages'], 'stages');
    expect(await refusedPaths(() => parseGoal(goal, { stages: 'a' } as never))).toEqual([['stages']]);
  });

  it('still checks rerun stages against the stages given', () => {
    expect(parseGoal(goal, { stages: ['a'] }).success).toBe(false);
    expect(parseGoal(goal, { stages: ['a', 'b'] }).success).toBe(true);
    expect(parseGoal(goal).success).toBe(true);
    const verdicts = [{ verdict: 'FAIL', recommended_rerun_stages: ['z'] }];
    expect(parseVerdictFile(verdicts, { stages: ['a'] }).issues).not.toEqual([]);
  });
});

describe('GoalLoop evaluate() and events() options, and readLoopStatus', () => {
  it('evaluate refuses a misspelt skipCommands instead of running the commands', async () => {
    const commands = createFakeCommandRunner({ 'npm test': { exitCode: 0 } });
    const h = harness({ [runFile('goal.json')]: goalJson([{ id: 't', kind: 'command', command: 'npm test' }]) });
    const loop = h.loop(createScriptedStageRunner({ a: passed, b: passed, c: passed }), { commands });
    const error = await expectUnknownKey(
      () => loop.evaluate({ skipComands: true } as never),
      ['skipComands'],
      'skipCommands',
    );
    expect(error.message).toContain('GoalLoop.evaluate()');
    expect(await refusedPaths(() => loop.evaluate({ skipCommands: 'yes' } as never))).toEqual([['skipCommands']]);
    expect(commands.calls).toEqual([]);
    expect((await loop.evaluate({ skipCommands: true })).criteria[0]?.status).toBe('PENDING');
    expect(commands.calls).toEqual([]);
    expect((await loop.evaluate()).criteria[0]?.status).toBe('PASS');
  });

  it('events refuses a misspelt signal, which would never end the iteration', async () => {
    const h = harness();
    const loop = h.loop(createScriptedStageRunner({ a: passed, b: passed, c: passed }));
    const ended = new AbortController();
    await expectUnknownKey(() => loop.events({ sigal: ended.signal } as never), ['sigal'], 'signal');
    expect(await refusedPaths(() => loop.events({ signal: true } as never))).toEqual([['signal']]);
    const events = loop.events({ signal: ended.signal });
    ended.abort();
    expect((await events.next()).done).toBe(true);
  });

  it('readLoopStatus refuses a misspelt or missing run directory', async () => {
    const h = harness();
    await expectUnknownKey(() => readLoopStatus({ fs: h.fs, runDir: RUN, rundir: RUN } as never), ['rundir'], 'runDir');
    expect(await refusedPaths(() => readLoopStatus({ fs: h.fs } as never))).toEqual([['runDir']]);
    expect((await readLoopStatus({ fs: h.fs, runDir: RUN })).phase).toBeDefined();
  });
});
