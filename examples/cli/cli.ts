// A CLI a third party writes over goal-loop, on commander: `run`, `status`, `approve <criterion>`, `report`.
// Usage: tsx examples/cli/cli.ts [--root <dir>] [--run-dir <dir>] <command>. Ctrl-C aborts a run (resumable:
// `run` again); a second Ctrl-C waits too, since killing the process mid-stop would leave the run's lock behind.
// The exit code is exitCodeFor(result) — 0 complete, 4 ask_user, 130 aborted, … (1 error, 2 usage).
import { writeFile } from 'node:fs/promises';
import { Command, CommanderError } from 'commander';
import {
  exitCodeFor,
  formatEvent,
  formatResult,
  GoalLoop,
  isGoalLoopError,
  readLoopStatus,
  renderRunReport,
  writeVerdict,
} from 'goal-loop';
import { DEFAULT_GOAL } from 'goal-loop/contracts';
import { createNodeFileSystem } from 'goal-loop/node';
import { demoPipeline } from './pipeline.js';

const program = new Command('goal-loop-cli')
  .option('--root <dir>', 'project root', process.cwd())
  .option('--run-dir <dir>', 'run directory, relative to the root', '.goal-loop/runs/cli')
  .exitOverride();
const run = () => ({ fs: createNodeFileSystem(program.opts().root), runDir: program.opts().runDir as string });

program
  .command('run')
  .description('run the goal loop until it stops; Ctrl-C aborts, and `run` again resumes')
  .action(async () => {
    const controller = new AbortController();
    // Every Ctrl-C is handled (a `once` listener would leave the second to Node's default, which kills the process
    // before the loop releases its lock, and every later run would be RUN_LOCKED until the lock went stale).
    // The listener stays until the process exits (it does not keep it alive), so a late Ctrl-C is never fatal.
    process.on('SIGINT', () => {
      if (controller.signal.aborted) {
        console.error('already stopping: waiting for the loop to release its lock');
        return;
      }
      console.error('stopping: the current stage is cancelled and the run paused (`run` again resumes it)');
      controller.abort();
    });
    const onEvent = (event: Parameters<typeof formatEvent>[0]) => console.log(formatEvent(event));
    const loop = new GoalLoop({ ...run(), ...demoPipeline(), signal: controller.signal, onEvent });
    const result = await loop.run();
    console.log(formatResult(result));
    process.exitCode = exitCodeFor(result);
  });

program
  .command('status')
  .description("print the loop's persisted state")
  .action(async () => {
    const status = await readLoopStatus(run());
    const stop = status.stop ?? status.paused;
    console.log(`iteration ${status.iteration}, phase ${status.phase ?? 'none'}, spent $${status.spentUsd}`);
    console.log(
      stop === null ? 'no stop recorded' : `${status.stop ? 'stopped' : 'paused'} on ${stop.stoppedOn}: ${stop.reason}`,
    );
    if (status.pendingStages.length > 0) console.log(`pending stages: ${status.pendingStages.join(', ')}`);
    const awaiting = status.awaitingVerdicts;
    if (awaiting !== null)
      console.log(
        `to answer: approve ${awaiting.criterionIds.join(', ')} (stamped for iteration ${awaiting.iteration})`,
      );
    if (status.lock?.holder === 'gone') console.log(`the loop crashed (pid ${status.lock.pid}): run again to resume`);
    else if (status.lock !== null) console.log(`locked by ${status.lock.owner} (${status.lock.holder})`);
  });

program
  .command('approve <criterion>')
  .description('answer a judge criterion with PASS (or --fail) for the next run')
  .option('--fail', 'record FAIL instead of PASS')
  .option('--reason <text>', 'why')
  .action(async (criterionId: string, options: { fail?: boolean; reason?: string }) => {
    const { fs, runDir } = run();
    // writeVerdict checks the id against the run's goal.json; a run without one works towards the default goal.
    const goal = (await fs.readText(`${runDir}/goal.json`)) === null ? DEFAULT_GOAL : undefined;
    const verdict = options.fail ? 'FAIL' : 'PASS';
    const written = await writeVerdict({
      fs,
      runDir,
      goal,
      criterionId,
      verdict,
      judge: 'human:cli',
      reasoning: options.reason,
    });
    console.log(`${criterionId}: ${written.verdict} for iteration ${written.iteration}`);
  });

program
  .command('report')
  .description('render the run as Markdown (with a Mermaid diagram of its path)')
  .option('-o, --out <file>', 'write to a file instead of standard output')
  .action(async (options: { out?: string }) => {
    const markdown = await renderRunReport(run());
    if (options.out === undefined) process.stdout.write(markdown);
    else await writeFile(options.out, markdown);
  });

try {
  await program.parseAsync();
} catch (error) {
  if (error instanceof CommanderError) process.exitCode = error.exitCode === 0 ? 0 : 2;
  else {
    console.error(isGoalLoopError(error) ? `${error.code}: ${error.message}` : error);
    process.exitCode = 1;
  }
}
