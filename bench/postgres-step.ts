// The step every Postgres bench measures.
import { GoalLoop } from '../src/index.js';
import type { FileSystem } from '../src/ports/file-system.js';

/** One step of a fresh run: the pipeline passes at once, so the step decides `complete`. */
export async function freshRunStep(fs: FileSystem, runDir: string): Promise<void> {
  const loop = new GoalLoop({
    fs,
    runDir,
    stages: ['02-requirements', '07-code', '08-testing'],
    runner: { run: async () => ({ status: 'passed' }) },
  });
  const step = await loop.step();
  if (!step.done || step.stoppedOn !== 'complete') throw new Error(`${runDir}: stopped on ${step.stoppedOn}`);
}
