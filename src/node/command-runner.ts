import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { execa } from 'execa';
import { GoalLoopError } from '../errors.js';
import type { CommandResult, CommandRunner, CommandRunOptions } from '../ports/command-runner.js';

/**
 * Options of {@link createExecaCommandRunner}.
 *
 * @public
 */
export interface ExecaCommandRunnerOptions {
  /** How many trailing bytes of stdout and of stderr to keep (default 65536). */
  readonly maxOutputBytes?: number;
}

/**
 * The Node implementation of the {@link CommandRunner} port, on execa. Runs the
 * command line through a shell in its own process group, keeps only the tail
 * of stdout and stderr, and on timeout or abort kills the whole group
 * (`SIGKILL`), grandchildren included. Never rejects: a non-zero exit, a
 * timeout, an abort and a failure to start (`startError`) are all results.
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
  const maxOutputBytes = options.maxOutputBytes ?? 65_536;
  if (!Number.isSafeInteger(maxOutputBytes) || maxOutputBytes < 0) {
    throw new GoalLoopError(
      'INVALID_OPTIONS',
      `maxOutputBytes must be a non-negative integer (got ${String(options.maxOutputBytes)})`,
    );
  }
  return {
    concurrency: availableParallelism(),
    run: (command, runOptions) => runCommand(command, runOptions, maxOutputBytes),
  };
}

// Runs one command line to completion, timeout or abort, and shapes the result.
async function runCommand(command: string, options: CommandRunOptions, maxOutputBytes: number): Promise<CommandResult> {
  const started = performance.now();
  const stdout = createTail(maxOutputBytes);
  const stderr = createTail(maxOutputBytes);
  // Completes a result with the duration and the output tails.
  const shaped = (
    fields: Pick<CommandResult, 'exitCode' | 'timedOut' | 'aborted'> & { startError?: string },
  ): CommandResult => ({
    ...fields,
    durationMs: performance.now() - started,
    stdoutTail: stdout.text(),
    stderrTail: stderr.text(),
  });
  if (options.signal?.aborted) return shaped({ exitCode: null, timedOut: false, aborted: true });
  if (!(options.timeoutMs >= 0)) {
    return shaped({
      exitCode: null,
      timedOut: false,
      aborted: false,
      startError: `timeoutMs must be a non-negative number (got ${options.timeoutMs})`,
    });
  }

  let subprocess: ReturnType<typeof spawn>;
  try {
    subprocess = spawn(command, options);
  } catch (error) {
    return shaped({ exitCode: null, timedOut: false, aborted: false, startError: messageOf(error) });
  }
  subprocess.stdout?.on('data', (chunk: Uint8Array | string) => stdout.push(chunk));
  subprocess.stderr?.on('data', (chunk: Uint8Array | string) => stderr.push(chunk));

  let timedOut = false;
  let aborted = false;
  // Marks why the run ends early and kills the process tree (once).
  const stop = (why: 'timeout' | 'abort'): void => {
    if (timedOut || aborted) return;
    if (why === 'timeout') timedOut = true;
    else aborted = true;
    killTree(subprocess);
  };
  // Infinity means no timeout; setTimeout would fire at once past 2^31-1 ms, so clamp finite waits to that.
  const timer = Number.isFinite(options.timeoutMs)
    ? setTimeout(() => stop('timeout'), Math.min(options.timeoutMs, 2_147_483_647))
    : undefined;
  // Forwards the caller's abort.
  const onAbort = (): void => stop('abort');
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const result = await subprocess;
    if (subprocess.pid === undefined) {
      const reason =
        'originalMessage' in result && typeof result.originalMessage === 'string'
          ? result.originalMessage
          : result.message;
      return shaped({
        exitCode: null,
        timedOut: false,
        aborted: false,
        startError: reason ?? 'the command could not start',
      });
    }
    return shaped({ exitCode: timedOut || aborted ? null : (result.exitCode ?? null), timedOut, aborted });
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

// Starts the shell as a process-group leader with output streamed, not buffered.
function spawn(command: string, options: CommandRunOptions) {
  return execa(command, {
    shell: true,
    reject: false,
    detached: true,
    buffer: false,
    stdin: 'ignore',
    cwd: options.cwd,
    env: options.env === undefined ? undefined : { ...options.env },
    extendEnv: true,
  });
}

// Kills the subprocess's whole process group, falling back to the process alone.
function killTree(subprocess: ReturnType<typeof spawn>): void {
  const pid = subprocess.pid;
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // No group (or no permission): kill the shell itself, but only while it is not yet reaped,
    // so a recycled pid is never hit.
    if (subprocess.exitCode === null && subprocess.signalCode === null) subprocess.kill('SIGKILL');
  }
}

// A rolling buffer that keeps only the last `max` bytes of a stream.
function createTail(max: number) {
  let chunks: Buffer[] = [];
  let size = 0;
  return {
    push(chunk: Uint8Array | string): void {
      const bytes =
        typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      chunks.push(bytes);
      size += bytes.length;
      if (size > max * 2 + 4096) {
        const kept = Buffer.concat(chunks).subarray(size - max);
        chunks = [Buffer.from(kept)];
        size = kept.length;
      }
    },
    text(): string {
      const all = Buffer.concat(chunks);
      let start = Math.max(0, all.length - max);
      // Skip UTF-8 continuation bytes so the tail never starts mid-character.
      while (start < all.length && start > 0 && ((all[start] ?? 0) & 0xc0) === 0x80) start += 1;
      return all.subarray(start).toString('utf8');
    },
  };
}

// The message of an unknown thrown value.
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
