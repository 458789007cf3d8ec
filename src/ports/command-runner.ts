/** Options of one command run. @public */
export interface CommandRunOptions {
  /** Working directory: an absolute path (the loop passes the project root). */
  readonly cwd: string;
  /** Kill the whole process tree after this many milliseconds (a number ≥ 0; `Infinity`: never). */
  readonly timeoutMs: number;
  /** Extra environment variables. */
  readonly env?: Readonly<Record<string, string>>;
  /** Aborts the command (the whole process tree is killed). */
  readonly signal?: AbortSignal;
}

/** The result of a command: a non-zero exit is a result, never a throw. @public */
export interface CommandResult {
  /** The exit code, or `null` when the process was killed or could not start. */
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly aborted: boolean;
  readonly durationMs: number;
  /** The last bytes of standard output (capped, 64 KiB by default). */
  readonly stdoutTail: string;
  /** The last bytes of standard error (capped). */
  readonly stderrTail: string;
  /** Why the command could not start, when it could not (e.g. ENOENT for cwd). */
  readonly startError?: string;
  /** What the runner did beyond waiting for the command, when it had to. */
  readonly detail?: string;
}

/** The command port: runs a shell command line. @public */
export interface CommandRunner {
  /** How many commands this runner suggests running at once (the execa runner: the number of CPUs). */
  readonly concurrency?: number;
  /** Runs one command line. */
  run(command: string, options: CommandRunOptions): Promise<CommandResult>;
}
