// The goal loop the durable-step benchmarks time: one no-op stage, a goal that passes, one step() of a fresh run
// per iteration (lock, a new record, the stage, the evaluation, the decision, release).
import { GoalLoop } from '../src/goal/goal-loop.js';
import type { FileSystem } from '../src/ports/file-system.js';

/** A one-stage loop over `fs` whose every step() is one whole iteration that decides `complete`. */
function oneStageLoop(fs: FileSystem, runDir: string): GoalLoop {
  return new GoalLoop({
    fs,
    runDir,
    stages: ['07-code'],
    runner: { run: async () => ({ status: 'passed' }) },
    goal: { schema_version: 1, goal_id: 'durable', criteria: [] },
  });
}

let runs = 0;

/** One iteration: a step() of a fresh run in `fs`, which must decide `complete`. */
export async function iterate(fs: FileSystem): Promise<void> {
  const step = await oneStageLoop(fs, `runs/r-${runs++}`).step();
  if (!step.done || step.stoppedOn !== 'complete') throw new Error(`the bench loop stopped on ${step.stoppedOn}`);
}
