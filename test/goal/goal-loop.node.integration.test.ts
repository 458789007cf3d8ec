import { mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GoalEvaluation } from '../../src/goal/core/evaluate.js';
import type { StageContext } from '../../src/goal/stage-runner.js';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import type { StageOutcome } from '../../src/ports/stage-runner.js';
import { createScriptedStageRunner, type ScriptedStep } from '../../src/testing/scripted-stage-runner.js';
import {
  command,
  deferred,
  expectStop,
  fileExists,
  goalJson,
  PATHS,
  passed,
  RUN,
  readEvents,
  readState,
  typesOf,
} from './helpers.js';
import { base, commands, loop, root, useNodeProject } from './node-project.js';

// The key loop scenarios on the real filesystem, with real child processes and the system clock.

useNodeProject();

const writeGoal = (criteria: Record<string, unknown>[]) => writeFile(join(root, RUN, 'goal.json'), goalJson(criteria));

// A stage that spawns the script to write `<runDir>/<path>` with the text computed from the context.
function spawnsWriter(
  path: (ctx: StageContext) => string,
  text: (ctx: StageContext) => string,
): ScriptedStep<GoalEvaluation> {
  return async (ctx) => {
    const result = await commands.run(`node stage.mjs '${path(ctx)}' '${text(ctx)}'`, {
      cwd: root,
      timeoutMs: 30_000,
      signal: ctx.signal,
    });
    return result.exitCode === 0
      ? { status: 'passed', artifacts: [path(ctx)] }
      : { status: 'failed', detail: result.stderrTail };
  };
}

describe('GoalLoop on the Node filesystem', () => {
  it('a stage spawns a real script writing an artifact; a command criterion fails, then passes after a retry', async () => {
    await writeGoal([
      fileExists('artifact', 'artifacts/a.json', ['a'], { run_relative: true }),
      command('flag', `node -e "process.exit(require('fs').existsSync('flag') ? 0 : 1)"`, ['b']),
    ]);
    const runner = createScriptedStageRunner({
      a: spawnsWriter(
        (ctx) => `${ctx.runDir}/artifacts/a.json`,
        (ctx) => JSON.stringify({ iteration: ctx.iteration }),
      ),
      b: spawnsWriter(
        (ctx) => (ctx.iteration >= 2 ? 'flag' : `${ctx.runDir}/artifacts/b.txt`),
        () => 'up',
      ),
      c: passed,
    });
    const result = await loop(runner).run();
    expectStop(result, 'complete', 0);
    expect(result).toMatchObject({ iterations: 2, iteration: 2 });
    expect(runner.stageIds()).toEqual(['a', 'b', 'c', 'b']);
    expect(JSON.parse(await readFile(join(root, RUN, 'artifacts/a.json'), 'utf8'))).toEqual({ iteration: 1 });
    const fs = createNodeFileSystem(root);
    const evaluated = (await readEvents(fs)).filter((event) => event.type === 'goal_evaluated');
    expect(evaluated.map((event) => event.type === 'goal_evaluated' && event.status)).toEqual(['RETRY', 'PASS']);
    expect(result.evaluation?.criteria.find((criterion) => criterion.id === 'flag')).toMatchObject({
      status: 'PASS',
      observed: 0,
    });
    expect(await fs.readText(PATHS.lock)).toBeNull();
  });

  it('refuses a file_exists path that is a real symlink escaping the root', async () => {
    await mkdir(join(base, 'outside'), { recursive: true });
    await writeFile(join(base, 'outside', 'secret.txt'), 'secret');
    await symlink('../outside/secret.txt', join(root, 'leak.txt'));
    await writeGoal([fileExists('leak', 'leak.txt')]);
    const evaluation = await loop(createScriptedStageRunner({})).evaluate();
    expect(evaluation.criteria[0]).toMatchObject({ id: 'leak', status: 'FAIL' });
    expect(evaluation.criteria[0]?.detail).toContain('outside the project root');
    expect(await stat(join(root, RUN, 'events.jsonl')).catch(() => null)).toBeNull();
  });

  it('checks a json_schema criterion against the artifact a stage writes', async () => {
    const schema = {
      type: 'object',
      required: ['endpoints'],
      properties: { endpoints: { type: 'array', minItems: 1 } },
    };
    await writeGoal([
      {
        id: 'api-shape',
        kind: 'json_schema',
        path: 'artifacts/design.json',
        run_relative: true,
        schema,
        rerun_stages: ['c'],
      },
    ]);
    const design = (ctx: StageContext): StageOutcome | Promise<StageOutcome> =>
      ctx.fs
        .writeText(
          `${ctx.runDir}/artifacts/design.json`,
          JSON.stringify(ctx.iteration === 1 ? { endpoints: [] } : { endpoints: ['/v1'] }),
        )
        .then(() => passed);
    const result = await loop(createScriptedStageRunner({ a: passed, b: passed, c: design })).run();
    expectStop(result, 'complete', 0);
    const events = await readEvents(createNodeFileSystem(root));
    const first = events.find((event) => event.type === 'goal_evaluated');
    expect(first).toMatchObject({ status: 'RETRY', recommended_rerun_stages: ['c'] });
    expect(result.iteration).toBe(2);
  });

  it('a second concurrent GoalLoop on the same run dir gets RUN_LOCKED', async () => {
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
    const first = loop(runner).run();
    await entered.promise;
    const lock = JSON.parse(await readFile(join(root, RUN, 'loop.lock'), 'utf8')) as { pid: number; owner: string };
    expect(lock.pid).toBe(process.pid);
    await expect(loop(createScriptedStageRunner({ a: passed, b: passed, c: passed })).run()).rejects.toMatchObject({
      name: 'GoalLoopError',
      code: 'RUN_LOCKED',
    });
    release.resolve();
    expectStop(await first, 'complete', 0);
    expect(await stat(join(root, RUN, 'loop.lock')).catch(() => null)).toBeNull();
  });

  it('aborts a stage running a real child process, then resumes without rerunning finished stages', async () => {
    const controller = new AbortController();
    const longStage: ScriptedStep<GoalEvaluation> = async (ctx) => {
      setTimeout(() => controller.abort(new Error('operator stop')), 150);
      const result = await commands.run('node -e "setTimeout(() => {}, 60000)"', {
        cwd: root,
        timeoutMs: 120_000,
        signal: ctx.signal,
      });
      return result.aborted ? { status: 'failed', detail: 'aborted' } : passed;
    };
    const started = Date.now();
    const aborted = await loop(createScriptedStageRunner({ a: passed, b: longStage, c: passed }), {
      signal: controller.signal,
    }).run();
    expectStop(aborted, 'aborted', 130);
    expect(Date.now() - started).toBeLessThan(15_000);
    const fs = createNodeFileSystem(root);
    expect(await fs.readText(PATHS.lock)).toBeNull();
    expect(await readState(fs)).toMatchObject({ phase: 'running_stages', iteration: 1, stop: null });

    const second = createScriptedStageRunner({ a: passed, b: passed, c: passed });
    const resumed = await loop(second).run();
    expectStop(resumed, 'complete', 0);
    expect(second.stageIds()).toEqual(['b', 'c']);
    const events = await readEvents(fs);
    expect(typesOf(events).filter((type) => type === 'loop_iteration_started')).toHaveLength(1);
    expect(events.find((event) => event.type === 'loop_resumed')).toMatchObject({ pending_stages: ['b', 'c'] });
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index));
  });
});
