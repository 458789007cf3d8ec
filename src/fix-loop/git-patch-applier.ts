import { GoalLoopError } from '../errors.js';
import type { CommandResult, CommandRunner } from '../ports/command-runner.js';
import type { FixCandidate } from './contracts/candidate.js';
import type { ApplyContext, ApplyResult, CandidateApplier } from './host-ports.js';

/**
 * Options of {@link createGitPatchApplier}.
 *
 * @public
 */
export interface GitPatchApplierOptions {
  /** Runs `git` (the execa runner of `goal-loop/node`, or a fake in tests). */
  readonly commands: CommandRunner;
  /** Time limit of each `git apply` run, in ms (default 60 000). */
  readonly timeoutMs?: number;
}

// Characters per environment variable: at most 3 UTF-8 bytes each, so a chunk stays far below Linux's
// 128 KiB limit on one environment string.
const CHUNK_CHARS = 32_768;
// The whole patch must fit in the environment with room to spare (Linux allows about 2 MiB in all).
const MAX_PATCH_CHARS = 1_048_576;
const PREFIX = 'GOAL_LOOP_PATCH_';

/**
 * A {@link CandidateApplier} for unified diffs (a candidate's `patch`, as
 * `git diff` writes it): runs `git apply --check`, then `git apply`, in the
 * workspace. The command runner has no standard input, so the diff travels
 * in environment variables (split in chunks) and the shell pipes it to git:
 * nothing is written to the workspace but the fix. Inside a git repository
 * the diff's paths are relative to the repository's top, elsewhere to the
 * workspace. A diff that does not apply, a candidate without `patch`, a
 * patch too large for the environment (over 1 MiB) or a NUL character, and
 * git missing or timing out are all `{ applied: false, detail }` — never a
 * throw.
 *
 * @example
 * ```ts
 * import { createExecaCommandRunner } from 'goal-loop/node';
 * import { createGitPatchApplier } from 'goal-loop/fix-loop';
 * const applier = createGitPatchApplier({ commands: createExecaCommandRunner() });
 * const { applied, detail } = await applier.apply(candidate, { workspace: '/srv/app', signal });
 * ```
 * @public
 */
export function createGitPatchApplier(options: GitPatchApplierOptions): CandidateApplier {
  const timeoutMs = options.timeoutMs ?? 60_000;
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0)
    throw new GoalLoopError(
      'INVALID_OPTIONS',
      `timeoutMs must be a positive integer (got ${String(options.timeoutMs)})`,
    );
  return {
    async apply(candidate: FixCandidate, context: ApplyContext): Promise<ApplyResult> {
      const patch = candidate.patch;
      if (patch === undefined || patch.trim() === '')
        return { applied: false, detail: `candidate "${candidate.description}" carries no patch to apply` };
      if (patch.length > MAX_PATCH_CHARS)
        return {
          applied: false,
          detail: `the patch is ${patch.length} characters, over the 1 MiB this applier passes`,
        };
      if (patch.includes('\0'))
        return { applied: false, detail: 'the patch contains a NUL character, which git apply cannot take as text' };
      const env = patchEnvironment(patch);
      const pipe = `printf '%s' ${Object.keys(env)
        .map((name) => `"$${name}"`)
        .join(' ')} | git apply`;
      const run = (args: string) =>
        options.commands.run(`${pipe}${args}`, { cwd: context.workspace, timeoutMs, env, signal: context.signal });
      const check = await run(' --check');
      if (check.exitCode !== 0) return { applied: false, detail: `git apply --check refused the patch: ${why(check)}` };
      const applied = await run('');
      if (applied.exitCode !== 0) return { applied: false, detail: `git apply failed: ${why(applied)}` };
      return { applied: true, detail: `git apply applied the patch in ${context.workspace}` };
    },
  };
}

// The patch split into environment variables, never splitting a surrogate pair.
function patchEnvironment(patch: string): Record<string, string> {
  const env: Record<string, string> = {};
  let start = 0;
  for (let index = 0; start < patch.length; index++) {
    let end = Math.min(patch.length, start + CHUNK_CHARS);
    const last = patch.charCodeAt(end - 1);
    if (end < patch.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    env[`${PREFIX}${index}`] = patch.slice(start, end);
    start = end;
  }
  return env;
}

// What a failed git run said: its error output (first lines), or why it did not run.
function why(result: CommandResult): string {
  if (result.timedOut) return 'git timed out';
  if (result.aborted) return 'aborted';
  if (result.startError !== undefined) return result.startError;
  const said = `${result.stderrTail}\n${result.stdoutTail}`.trim().split('\n').slice(0, 6).join(' | ');
  return said === '' ? `exit code ${String(result.exitCode)}` : `${said} (exit code ${String(result.exitCode)})`;
}
