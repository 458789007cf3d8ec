import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { execa } from 'execa';
import { refuseOptions } from '../errors.js';
import { commandRunOptionIssues } from '../ports/command-run-checks.js';
import type { CommandResult, CommandRunner, CommandRunOptions } from '../ports/command-runner.js';
import { checkExecaRunnerOptions, type ExecaCommandRunnerOptions } from './options.js';
import { createTail, within } from './output-pipes.js';
import { killGroup, killTree } from './process-tree.js';

// The environment variable that marks every process a command starts (its value is unique to the run).
const COMMAND_ID_VARIABLE = 'GOAL_LOOP_COMMAND_ID';

// How long the output pipes may stay open after the shell exited or was killed before the runner stops reading them.
const PIPE_GRACE_MS = 300;

/**
 * The Node `CommandRunner`, on execa: runs the command line through a shell in its own process group and keeps
 * the tails of stdout and stderr. On timeout or abort it kills the whole tree (`SIGKILL`), on Linux also processes
 * that left it, found by the `GOAL_LOOP_COMMAND_ID` each inherits. Never rejects: a non-zero exit, a timeout, an abort
 * and a failure to start (`startError`) are results.
 *
 * Once the shell has exited it waits at most 300 ms for the output pipes: `setsid sleep 20 & echo hi` returns in about
 * 300 ms, the rest of its group killed and `detail` saying so. Bad runner or `run` options (`timeoutMs: "500"`, a
 * misspelt key) are `INVALID_OPTIONS` naming the path, before anything starts.
 *
 * @example
 * ```ts
 * import { createExecaCommandRunner } from 'goal-loop/node';
 * const runner = createExecaCommandRunner();
 * const result = await runner.run('npm test', { cwd: process.cwd(), timeoutMs: 120_000 });
 * if (result.exitCode !== 0) console.error(result.stderrTail);
 * ```
 * @public
 */
export function createExecaCommandRunner(options: ExecaCommandRunnerOptions = {}): CommandRunner {
  const maxOutputBytes = checkExecaRunnerOptions(options);
  return {
    concurrency: availableParallelism(),
    run: async (command, runOptions) => {
      refuseOptions('createExecaCommandRunner run', commandRunOptionIssues(runOptions));
      return runCommand(command, runOptions, maxOutputBytes);
    },
  };
}

// Runs one command line to completion, timeout or abort, and shapes the result.
async function runCommand(command: string, options: CommandRunOptions, maxOutputBytes: number): Promise<CommandResult> {
  const started = performance.now();
  const stdout = createTail(maxOutputBytes);
  const stderr = createTail(maxOutputBytes);
  // Completes a result with the duration and the output tails.
  const shaped = (
    fields: Pick<CommandResult, 'exitCode' | 'timedOut' | 'aborted'> & { startError?: string; detail?: string },
  ): CommandResult => ({
    ...fields,
    durationMs: performance.now() - started,
    stdoutTail: stdout.text(),
    stderrTail: stderr.text(),
  });
  if (options.signal?.aborted) return shaped({ exitCode: null, timedOut: false, aborted: true });

  // Every process the command starts inherits this variable, so one that left the tree is still found on a kill.
  const commandId = randomUUID();
  let subprocess: ReturnType<typeof spawn>;
  try {
    subprocess = spawn(command, options, commandId);
  } catch (error) {
    return shaped({ exitCode: null, timedOut: false, aborted: false, startError: messageOf(error) });
  }
  subprocess.stdout?.on('data', (chunk: Uint8Array | string) => stdout.push(chunk));
  subprocess.stderr?.on('data', (chunk: Uint8Array | string) => stderr.push(chunk));

  let timedOut = false;
  let aborted = false;
  const notes: string[] = [];
  // Resolves once the shell has exited or been killed; from then on the pipes get only a short grace.
  let ended: () => void = () => undefined;
  const end = new Promise<void>((resolve) => {
    ended = resolve;
  });
  // Marks why the run ends early and kills the process tree (once).
  const stop = (why: 'timeout' | 'abort'): void => {
    if (timedOut || aborted) return;
    if (why === 'timeout') timedOut = true;
    else aborted = true;
    const reason = why === 'timeout' ? `timed out after ${options.timeoutMs} ms` : 'aborted';
    notes.push(`${reason}: ${killTree(subprocess, `${COMMAND_ID_VARIABLE}=${commandId}`)}`);
    ended();
  };
  // Infinity means no timeout; setTimeout would fire at once past 2^31-1 ms, so clamp finite waits to that.
  const timer = Number.isFinite(options.timeoutMs)
    ? setTimeout(() => stop('timeout'), Math.min(options.timeoutMs, 2_147_483_647))
    : undefined;
  // The shell finished within its time: the timeout no longer applies, only the grace for the pipes.
  subprocess.once('exit', () => {
    clearTimeout(timer);
    ended();
  });
  // Forwards the caller's abort.
  const onAbort = (): void => stop('abort');
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const settled = Promise.resolve(subprocess).then(
    (result) => result,
    (error: unknown) => ({ exitCode: undefined, message: messageOf(error) }),
  );
  try {
    if ((await Promise.race([settled.then(() => 'settled'), end.then(() => 'ended')])) === 'ended') {
      if (!(await within(settled, PIPE_GRACE_MS))) {
        // Still held: by the rest of the group after a normal exit (killed now), or by a process outside it.
        const groupKilled = !timedOut && !aborted && killGroup(subprocess);
        if (groupKilled) {
          notes.push(
            `the shell exited, but processes of its group held the output open: killed process group ${subprocess.pid} after ${PIPE_GRACE_MS} ms`,
          );
        }
        if (!groupKilled || !(await within(settled, 100))) {
          subprocess.stdout?.destroy();
          subprocess.stderr?.destroy();
          notes.push(
            `${timedOut || aborted || groupKilled ? 'a process outside the process group' : 'the shell exited, but a process outside its process group'} (detached, e.g. by setsid) held the output open: stopped reading it after ${PIPE_GRACE_MS} ms, without killing it`,
          );
        }
      }
    }
    const result = (await within(settled, PIPE_GRACE_MS)) ? await settled : undefined;
    const detail = notes.length === 0 ? {} : { detail: notes.join('; ') };
    if (subprocess.pid === undefined) {
      const reason =
        result !== undefined && 'originalMessage' in result && typeof result.originalMessage === 'string'
          ? result.originalMessage
          : result?.message;
      return shaped({
        exitCode: null,
        timedOut: false,
        aborted: false,
        startError: reason ?? 'the command could not start',
      });
    }
    const exitCode = timedOut || aborted ? null : (result?.exitCode ?? subprocess.exitCode ?? null);
    return shaped({ exitCode, timedOut, aborted, ...detail });
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

// Starts the shell as a process-group leader with output streamed, not buffered, and its id in the environment.
function spawn(command: string, options: CommandRunOptions, commandId: string) {
  return execa(command, {
    shell: true,
    reject: false,
    detached: true,
    buffer: false,
    stdin: 'ignore',
    cwd: options.cwd,
    env: { ...options.env, [COMMAND_ID_VARIABLE]: commandId },
    extendEnv: true,
  });
}

// The message of an unknown thrown value.
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
