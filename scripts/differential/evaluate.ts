// Writes a generated run into a project directory and evaluates it twice: with rstack-agents' goal check and with
// goal-loop's dry run (GoalLoop.evaluate), each given the same command outcomes and the same iteration.
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type CommandResult, type CommandRunner, GoalLoop } from 'goal-loop';
import { createNodeFileSystem } from 'goal-loop/node';
import { RUN_DIR, type RunSpec } from './generate.js';

/** A decision: the status and, on RETRY, the stages to rerun in the order given. */
export interface Decision {
  readonly status: string;
  readonly rerun: readonly string[];
}

/** rstack-agents' `evaluateGoal(projectRoot, runId, options)`, as its goal-check.js exports it. */
type RstackEvaluate = (
  projectRoot: string,
  runId: string,
  options: {
    iteration?: number;
    runCommand: (command: string) => Promise<{ exit_code: number | null; timed_out?: boolean }>;
  },
) => Promise<{ status: string; recommended_rerun_stages: string[] }>;

/** Loads rstack-agents' goal check from a directory holding its `goal-check.js` (and the files it imports). */
export async function loadRstack(harnessDir: string): Promise<RstackEvaluate> {
  const module = (await import(pathToFileURL(join(harnessDir, 'goal-check.js')).href)) as { evaluateGoal?: unknown };
  if (typeof module.evaluateGoal !== 'function') throw new Error(`${harnessDir}/goal-check.js exports no evaluateGoal`);
  return module.evaluateGoal as RstackEvaluate;
}

/** Writes `spec`'s files under `root`. */
export async function writeRun(root: string, spec: RunSpec): Promise<void> {
  for (const entry of spec.entries) {
    const path = join(root, entry.path);
    await mkdir(entry.kind === 'dir' ? path : dirname(path), { recursive: true });
    if (entry.kind === 'file') await writeFile(path, entry.text);
    if (entry.kind === 'symlink') await symlink(entry.target, path);
  }
}

// Criterion commands are `exit <code>`: both sides get the code without a process being spawned.
function exitCodeOf(command: string): number {
  const match = /^exit (\d+)$/.exec(command.trim());
  return match === null ? 127 : Number(match[1]);
}

const commands: CommandRunner = {
  concurrency: 4,
  run: async (command): Promise<CommandResult> => ({
    exitCode: exitCodeOf(command),
    timedOut: false,
    aborted: false,
    durationMs: 0,
    stdoutTail: '',
    stderrTail: '',
  }),
};

/** rstack-agents' decision on the run written under `root`. */
export async function rstackDecision(evaluate: RstackEvaluate, root: string, spec: RunSpec): Promise<Decision> {
  const result = await evaluate(root, RUN_DIR.split('/').at(-1) as string, {
    ...(spec.iteration === null ? {} : { iteration: spec.iteration }),
    runCommand: async (command) => ({ exit_code: exitCodeOf(command) }),
  });
  return { status: result.status, rerun: result.status === 'RETRY' ? result.recommended_rerun_stages : [] };
}

/** goal-loop's decision on the run written under `root`, as a user's dry run gets it. */
export async function goalLoopDecision(root: string, spec: RunSpec): Promise<Decision> {
  const loop = new GoalLoop({
    fs: createNodeFileSystem(root),
    runDir: RUN_DIR,
    stages: spec.pipeline,
    runner: { run: async () => ({ status: 'blocked', detail: 'a dry run runs no stage' }) },
    commands,
  });
  const evaluation = await loop.evaluate();
  return { status: evaluation.status, rerun: evaluation.recommendedRerunStages };
}
