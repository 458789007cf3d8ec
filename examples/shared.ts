// Helpers the examples share: a throwaway project folder, small stage scripts, and a console printer.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { LoopEvent, LoopResult } from 'goal-loop';

/** A fresh project folder under the system temp dir, removed by `dispose()`. */
export async function tempProject(
  name: string,
): Promise<{ root: string; write(path: string, text: string): Promise<void>; dispose(): Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), `goal-loop-${name}-`));
  return {
    root,
    async write(path, text) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), text);
    },
    dispose: () => rm(root, { recursive: true, force: true }),
  };
}

/** Prints the events a reader of the loop cares about, one line each. */
export function printEvent(event: LoopEvent): void {
  switch (event.type) {
    case 'loop_iteration_started':
      console.log(
        `\niteration ${event.iteration} (${event.session_iteration ?? '?'} of at most ${event.max_iterations} this session): running ${event.stages.length === 0 ? 'no stage' : event.stages.join(', ')}`,
      );
      break;
    case 'stage_completed':
      console.log(
        `  ${event.stage.padEnd(20)} ${event.status}${event.detail === undefined ? '' : ` — ${event.detail}`}`,
      );
      break;
    case 'goal_evaluated':
      console.log(
        `  goal evaluation: ${event.status} (goal score ${event.score}: % of the goal's checks passing) — ${event.reason}`,
      );
      break;
    case 'loop_iteration_retrying_stages':
      console.log(`  retrying ${event.stages.join(', ')}`);
      break;
    default:
      break;
  }
}

/** Prints the final decision and fails the process when it is not the one the example expects. */
export function expectStop(result: LoopResult, expected: LoopResult['stoppedOn']): void {
  console.log(`\nstopped on ${result.stoppedOn} after ${result.iterations} iteration(s): ${result.reason}`);
  if (result.stoppedOn !== expected) {
    console.error(`expected the loop to stop on ${expected}`);
    process.exitCode = 1;
  }
}
