import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCommandStageRunner, GoalLoop, isGoalLoopError, type StageContext } from '../../src/index.js';
import { createExecaCommandRunner, createNodeFileSystem } from '../../src/node.js';
import { createFakeCommandRunner, createManualClock, createMemoryFileSystem } from '../../src/testing.js';

const context = (overrides: Partial<StageContext> = {}): StageContext => ({
  runDir: 'runs/r1',
  iteration: 2,
  reason: { kind: 'retry', reason: 'x', criteria: [] },
  previousEvaluation: null,
  fs: createMemoryFileSystem({ root: '/project' }),
  signal: new AbortController().signal,
  ...overrides,
});

describe('createCommandStageRunner', () => {
  it('maps exit code 0 to passed and passes the stage context in the environment', async () => {
    const commands = createFakeCommandRunner({ 'node code.mjs': { exitCode: 0, stdoutTail: 'wrote 3 files\n' } });
    const runner = createCommandStageRunner({ commands, stages: { '07-code': 'node code.mjs' } });
    await expect(runner.run('07-code', context())).resolves.toEqual({ status: 'passed', detail: 'wrote 3 files' });
    expect(commands.calls[0]?.options).toMatchObject({
      cwd: '/project',
      env: {
        GOAL_LOOP_STAGE: '07-code',
        GOAL_LOOP_ITERATION: '2',
        GOAL_LOOP_RUN_DIR: 'runs/r1',
        GOAL_LOOP_REASON: 'retry',
      },
    });
  });

  it('maps a non-zero exit or a timeout to failed, quoting stderr', async () => {
    const commands = createFakeCommandRunner({
      fail: { exitCode: 2, stderrTail: 'boom\nlast words\n' },
      slow: { exitCode: null, timedOut: true },
    });
    const runner = createCommandStageRunner({ commands, stages: { a: 'fail', b: 'slow' }, timeoutMs: 50 });
    await expect(runner.run('a', context())).resolves.toEqual({
      status: 'failed',
      detail: 'fail exited 2: last words',
    });
    await expect(runner.run('b', context())).resolves.toEqual({
      status: 'failed',
      detail: 'slow timed out after 50 ms',
    });
  });

  it('hands stages without a command to the fallback, and refuses them without one', async () => {
    const fallback = { run: async () => ({ status: 'blocked' as const }) };
    const commands = createFakeCommandRunner();
    await expect(
      createCommandStageRunner({ commands, stages: {}, fallback }).run('11-feedback-loop', context()),
    ).resolves.toEqual({ status: 'blocked' });
    const error = await createCommandStageRunner({ commands, stages: {} })
      .run('x', context())
      .catch((caught: unknown) => caught);
    expect(isGoalLoopError(error, 'INVALID_OPTIONS')).toBe(true);
  });

  it('drives a loop whose stages are fake commands', async () => {
    let attempts = 0;
    const commands = createFakeCommandRunner({ build: () => ({ exitCode: attempts++ === 0 ? 1 : 0 }) });
    const loop = new GoalLoop({
      fs: createMemoryFileSystem(),
      runDir: 'runs/r1',
      stages: ['build'],
      runner: createCommandStageRunner({ commands, stages: { build: 'build' } }),
      clock: createManualClock(0),
    });
    await expect(loop.run()).resolves.toMatchObject({ stoppedOn: 'complete', iterations: 2 });
  });
});

describe('createCommandStageRunner with real child processes', () => {
  let root: string | undefined;
  afterEach(async () => {
    if (root !== undefined) await rm(root, { recursive: true, force: true });
  });

  it('runs a real script that writes an artifact into the run directory', async () => {
    root = await mkdtemp(join(tmpdir(), 'goal-loop-stage-'));
    const script = `node -e "const fs=require('fs');fs.mkdirSync(process.env.GOAL_LOOP_RUN_DIR+'/out',{recursive:true});fs.writeFileSync(process.env.GOAL_LOOP_RUN_DIR+'/out/it.txt',process.env.GOAL_LOOP_ITERATION)"`;
    const runner = createCommandStageRunner({ commands: createExecaCommandRunner(), stages: { write: script } });
    const loop = new GoalLoop({
      fs: createNodeFileSystem(root),
      runDir: 'runs/r1',
      stages: ['write'],
      runner,
      goal: {
        schema_version: 1,
        criteria: [{ id: 'out', kind: 'file_exists', run_relative: true, path: 'out/it.txt', rerun_stages: ['write'] }],
      },
    });
    await expect(loop.run()).resolves.toMatchObject({ stoppedOn: 'complete', iteration: 1 });
    await expect(readFile(join(root, 'runs/r1/out/it.txt'), 'utf8')).resolves.toBe('1');
  });
});
