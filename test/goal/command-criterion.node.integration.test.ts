import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GoalLoop } from '../../src/goal/goal-loop.js';
import { createExecaCommandRunner } from '../../src/node/command-runner.js';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import { command, goalJson, passed, RUN, STAGES } from './helpers.js';

// A command criterion run by the real runner, whose command leaves a detached process holding its output.

let base: string;
// Detached processes a command leaves running on purpose (the runner does not kill them); killed at the end.
const detached: number[] = [];
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'goal-loop-command-criterion-'));
  await mkdir(join(base, RUN), { recursive: true });
});
afterEach(async () => {
  for (const pid of detached.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  await rm(base, { recursive: true, force: true });
});

describe('a command criterion whose command leaves a detached process', () => {
  it("keeps the runner's note in the criterion's detail: the process held the output and was not killed", async () => {
    await writeFile(
      join(base, RUN, 'goal.json'),
      goalJson([command('detach', 'setsid sleep 20 & echo $!; echo hi', ['a'])]),
    );
    const loop = new GoalLoop({
      fs: createNodeFileSystem(base),
      runDir: RUN,
      stages: [...STAGES],
      runner: createScriptedStageRunner({ a: passed, b: passed, c: passed }),
      commands: createExecaCommandRunner(),
    });
    const evaluation = await loop.evaluate();
    const criterion = evaluation.criteria.find((item) => item.id === 'detach');
    const pid = Number.parseInt(String(criterion?.outputTail ?? '').split('\n')[0] ?? '', 10);
    if (Number.isInteger(pid) && pid > 0) detached.push(pid);
    expect(criterion).toMatchObject({ status: 'PASS', observed: 0 });
    expect(criterion?.detail).toContain('exited 0 (expected 0)');
    expect(criterion?.detail).toContain('held the output open');
    expect(criterion?.detail).toContain('without killing it');
  });
});
