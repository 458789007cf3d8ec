// Scaling out: each loop iteration is one job of a queue, run by whichever worker takes it. The whole state
// lives in the run directory, so any worker can run the next step; the run lock keeps two workers off one
// run. Here the queue is an array and the workers are two async loops; with Temporal or BullMQ the job body
// is the same `step()` call, run as an activity or a queue job over shared storage.
import { GoalLoop, isGoalLoopError, type StageRunner } from 'goal-loop';
import { createNodeFileSystem } from 'goal-loop/node';
import { tempProject } from '../shared.js';

const project = await tempProject('scaling-out');
const fs = createNodeFileSystem(project.root);
const stages = ['07-code', '08-testing'];

// A stage runner that needs two attempts at 08-testing, and takes a little while, like a real agent.
const runner: StageRunner = {
  async run(stage, context) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const ok = stage !== '08-testing' || context.reason.kind === 'retry';
    return { status: ok ? 'passed' : 'failed', detail: `${stage} at iteration ${context.iteration}` };
  },
};

// One job: one iteration of one run. 'requeue' while the loop would go on, or while another worker holds the run.
async function goalLoopJob(runDir: string, worker: string): Promise<'requeue' | 'done'> {
  const loop = new GoalLoop({ fs, runDir, stages, runner, maxIterations: 3 });
  try {
    const step = await loop.step();
    console.log(
      `${worker}: ${runDir} iteration ${step.iteration} → ${step.done ? `stopped on ${step.stoppedOn}` : `rerun ${step.rerunStages.join(', ')}`}`,
    );
    return step.done ? 'done' : 'requeue';
  } catch (error) {
    if (!isGoalLoopError(error, 'RUN_LOCKED')) throw error;
    console.log(`${worker}: ${runDir} is locked by another worker; requeued after a back-off`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    return 'requeue';
  }
}

// Three runs, each queued twice at the start (as an at-least-once queue may deliver), and two workers. A
// duplicate that arrives after its run completed opens a new session, finds the goal met, runs no stage and
// stops again: stepping a finished run is harmless.
const queue = ['runs/a', 'runs/b', 'runs/c', 'runs/a', 'runs/b', 'runs/c'];
const finished = new Set<string>();
async function worker(name: string): Promise<void> {
  for (let job = queue.shift(); job !== undefined; job = queue.shift()) {
    if (finished.has(job)) continue;
    if ((await goalLoopJob(job, name)) === 'requeue') queue.push(job);
    else finished.add(job);
  }
}
await Promise.all([worker('worker-1'), worker('worker-2')]);

const results = await Promise.all(
  ['runs/a', 'runs/b', 'runs/c'].map((runDir) => new GoalLoop({ fs, runDir, stages, runner }).evaluate()),
);
console.log(`\nall runs: ${results.map((evaluation) => evaluation.status).join(', ')}`);
if (results.some((evaluation) => evaluation.status !== 'PASS')) process.exitCode = 1;
await project.dispose();
