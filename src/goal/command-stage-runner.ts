import { z } from 'zod';
import { GoalLoopError, refuseInvalidOptions } from '../errors.js';
import type { CommandRunner } from '../ports/command-runner.js';
import type { StageOutcome } from '../ports/stage-runner.js';
import { lastLine } from './core/command-outcome.js';
import type { StageContext, StageRunner } from './stage-runner.js';

/** Options of {@link createCommandStageRunner}. @public */
export interface CommandStageRunnerOptions {
  /** Runs the commands (e.g. `createExecaCommandRunner()` from `goal-loop/node`). */
  readonly commands: CommandRunner;
  /** The command line of each stage it runs. */
  readonly stages: Readonly<Record<string, string>>;
  /** Working directory (absolute); default the filesystem root. */
  readonly cwd?: string;
  /** Per-stage timeout in milliseconds (default 10 minutes). */
  readonly timeoutMs?: number;
  /** Runs the stages this runner has no command for (e.g. the consistency review). */
  readonly fallback?: StageRunner;
}

const runnerPort = (name: string) =>
  z.custom((value) => typeof (value as { run?: unknown } | null)?.run === 'function', {
    message: `${name} must have a run method`,
  });
const optionShape = {
  commands: runnerPort('commands'),
  stages: z.record(z.string(), z.string().min(1, 'a stage command must not be empty')),
  cwd: z
    .string()
    .regex(/^([A-Za-z]:)?[\\/]/, 'cwd must be an absolute path')
    .optional(),
  timeoutMs: z.union([z.int().min(1), z.literal(Number.POSITIVE_INFINITY)]).optional(),
  fallback: runnerPort('fallback').optional(),
} satisfies Record<keyof CommandStageRunnerOptions, z.ZodType>;

/**
 * A stage runner that runs a shell command per stage: exit 0 is `passed`, anything else `failed`. The command gets
 * `GOAL_LOOP_STAGE`, `GOAL_LOOP_ITERATION`, `GOAL_LOOP_RUN_DIR` and `GOAL_LOOP_REASON` in its environment.
 *
 * @example
 * ```ts
 * const runner = createCommandStageRunner({
 *   commands: createExecaCommandRunner(),
 *   stages: { '07-code': 'node scripts/code-agent.mjs', '08-testing': 'node scripts/test-agent.mjs' },
 * });
 * ```
 * @public
 */
export function createCommandStageRunner(options: CommandStageRunnerOptions): StageRunner {
  refuseInvalidOptions('createCommandStageRunner', optionShape, options);
  return {
    async run(stageId: string, context: StageContext): Promise<StageOutcome> {
      const command = Object.hasOwn(options.stages, stageId) ? options.stages[stageId] : undefined;
      if (command === undefined) {
        if (options.fallback !== undefined) return options.fallback.run(stageId, context);
        throw new GoalLoopError(
          'INVALID_OPTIONS',
          `createCommandStageRunner has no command for stage "${stageId}" and no fallback runner.`,
        );
      }
      const result = await options.commands.run(command, {
        cwd: options.cwd ?? context.fs.root,
        timeoutMs: options.timeoutMs ?? 600_000,
        env: {
          GOAL_LOOP_STAGE: stageId,
          GOAL_LOOP_ITERATION: String(context.iteration),
          GOAL_LOOP_RUN_DIR: context.runDir,
          GOAL_LOOP_REASON: context.reason.kind,
        },
        signal: context.signal,
      });
      if (result.exitCode === 0)
        return { status: 'passed', detail: lastLine(result.stdoutTail) || `${command} exited 0` };
      const why = result.timedOut
        ? `timed out after ${options.timeoutMs ?? 600_000} ms`
        : (result.startError ?? `exited ${result.exitCode ?? 'without a code'}`);
      return { status: 'failed', detail: `${command} ${why}${tailNote(result.stderrTail)}` };
    },
  };
}

// A short note quoting the end of standard error.
function tailNote(stderr: string): string {
  const last = lastLine(stderr);
  return last === '' ? '' : `: ${last}`;
}
