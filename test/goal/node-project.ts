import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { GoalLoop } from '../../src/goal/goal-loop.js';
import type { GoalLoopOptions } from '../../src/goal/options.js';
import type { StageRunner } from '../../src/goal/stage-runner.js';
import { createExecaCommandRunner } from '../../src/node/command-runner.js';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import { systemClock } from '../../src/ports/clock.js';
import { RUN, STAGES } from './helpers.js';

// A project on the real filesystem for the Node loop tests: a fresh temp directory per test, real child processes
// and the system clock.

/** The command runner of the loops, real child processes. */
export const commands = createExecaCommandRunner();
// A script a stage spawns: writes its second argument to the file named by its first.
const STAGE_SCRIPT = `import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
const [out, text] = process.argv.slice(2);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, text);
`;

/** The temp directory of the current test; the project is its `project` folder (outside it: room to escape to). */
export let base: string;
/** The project root of the current test, holding the run dir and `stage.mjs`. */
export let root: string;
/** The run dir of the current test, {@link RUN} under {@link root}. */
export let run: string;

/** Makes {@link base}, {@link root} and {@link run} (and the stage script) before each test, removes them after. */
export function useNodeProject(): void {
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'goal-loop-node-'));
    root = join(base, 'project');
    run = join(root, RUN);
    await mkdir(run, { recursive: true });
    await writeFile(join(root, 'stage.mjs'), STAGE_SCRIPT);
  });
  afterEach(() => rm(base, { recursive: true, force: true }));
}

/** A GoalLoop over the run dir of {@link root} on the Node filesystem, with {@link commands} and the system clock. */
export const loop = (runner: StageRunner, options: Partial<GoalLoopOptions> = {}) =>
  new GoalLoop({
    fs: createNodeFileSystem(root),
    runDir: RUN,
    stages: [...STAGES],
    runner,
    commands,
    clock: systemClock,
    ...options,
  });
