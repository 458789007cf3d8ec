import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GoalLoop } from '../../src/goal/goal-loop.js';
import { iterationEvaluationPath } from '../../src/goal/loop-events.js';
import { createExecaCommandRunner } from '../../src/node/command-runner.js';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import { systemClock } from '../../src/ports/clock.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import { command, expectStop, goalJson, PATHS, RUN, readEvents, readState, typesOf } from './helpers.js';

// The abort of a real command criterion on the real filesystem: the loop's signal fires while `sleep 60` runs as the
// goal's test command. The loop stops aborted with the iteration unevaluated, the command's process is gone, and the
// next run evaluates that iteration (once the command passes) without running a stage again.

// Passes once the file `pass` exists; until then it records its pid (the shell, replaced by sleep) and sleeps a minute.
const TEST_COMMAND = 'test -f pass || { echo $$ > started; exec sleep 60; }';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'goal-loop-abort-eval-'));
  await mkdir(join(root, RUN), { recursive: true });
  await writeFile(join(root, RUN, 'goal.json'), goalJson([command('tests', TEST_COMMAND, ['a'])]));
});
afterEach(() => rm(root, { recursive: true, force: true }));

const loop = (options: { signal?: AbortSignal; maxIterations?: number }) => {
  const runner = createScriptedStageRunner({ a: { status: 'passed', costUsd: 1 } });
  const made = new GoalLoop({
    fs: createNodeFileSystem(root),
    runDir: RUN,
    stages: ['a'],
    runner,
    commands: createExecaCommandRunner(),
    clock: systemClock,
    ...options,
  });
  return { loop: made, runner };
};

// The pid the command wrote once it runs.
async function startedPid(): Promise<number> {
  for (;;) {
    const text = await readFile(join(root, 'started'), 'utf8').catch(() => '');
    if (text.endsWith('\n')) return Number(text.trim());
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('an abort while a real command criterion runs', () => {
  it.each([1, 3])(
    'maxIterations %i: stops aborted, kills the command, and the next run evaluates the iteration once',
    async (maxIterations) => {
      const controller = new AbortController();
      const first = loop({ signal: controller.signal, maxIterations });
      const running = first.loop.run();
      const pid = await startedPid();
      controller.abort(new Error('stop'));
      const result = await running;

      expectStop(result, 'aborted', 130);
      expect(result.reason).toBe('Aborted by the caller during the evaluation.');
      expect(alive(pid), `the command's process ${pid} is killed`).toBe(false);
      const fs = createNodeFileSystem(root);
      expect(await fs.readText(PATHS.lock)).toBeNull();
      expect(await readState(fs)).toMatchObject({
        phase: 'evaluating',
        stop: null,
        iteration: 1,
        last_evaluation: null,
      });
      expect(await stat(join(root, iterationEvaluationPath(RUN, 1))).catch(() => null)).toBeNull();
      expect(typesOf(await readEvents(fs))).toEqual([
        'loop_iteration_started',
        'stage_started',
        'stage_completed',
        'loop_blocked',
      ]);

      await writeFile(join(root, 'pass'), '');
      const second = loop({ maxIterations });
      const resumed = await second.loop.run();
      expectStop(resumed, 'complete', 0);
      expect(resumed).toMatchObject({ iteration: 1, iterations: 1, spentUsd: 1 });
      expect(second.runner.calls).toEqual([]);
      const events = await readEvents(fs);
      expect(events.filter((event) => event.type === 'goal_evaluated')).toEqual([
        expect.objectContaining({ iteration: 1, status: 'PASS' }),
      ]);
      expect(events.filter((event) => event.type === 'loop_iteration_started')).toHaveLength(1);
      expect(JSON.parse(await readFile(join(root, iterationEvaluationPath(RUN, 1)), 'utf8'))).toMatchObject({
        status: 'PASS',
      });
    },
    30_000,
  );
});
