// The git runs of the patch applier besides the apply itself: where the workspace lies in its repository, which
// symlinks a patch would touch, and what the touched paths hold (to check a revert).
import type { CommandRunner } from '../ports/command-runner.js';
import type { GitApplyCommand } from './core/git-apply-command.js';
import { why } from './core/git-output.js';
import type { ApplyContext, ApplyResult } from './host-ports.js';

/** Runs one of the applier's shell commands in the workspace, with the patch's environment. @internal */
export type GitRun = (command: string, env?: Readonly<Record<string, string>>) => ReturnType<CommandRunner['run']>;

/** A {@link GitRun} in `context.workspace`, bounded by `timeoutMs` and the context's signal. @internal */
export function gitRunner(commands: CommandRunner, context: ApplyContext, timeoutMs: number): GitRun {
  return (command, env) =>
    commands.run(command, {
      cwd: context.workspace,
      timeoutMs,
      signal: context.signal,
      ...(env === undefined ? {} : { env }),
    });
}

/** Where the workspace lies in its git repository ('' at its top or outside any repository), or why that is unknown. @internal */
export async function repositoryPrefix(run: GitRun): Promise<string | ApplyResult> {
  const result = await run('git rev-parse --show-prefix');
  if (result.timedOut || result.aborted)
    return { applied: false, detail: `git rev-parse --show-prefix did not finish: ${why(result)}` };
  // Outside a repository (or without git, which the apply then reports) the paths are the workspace's own.
  return result.exitCode === 0 ? result.stdoutTail.replace(/\r?\n$/, '') : '';
}

/**
 * Why a patch that touches a symlink of the workspace, or copies or moves one, is refused, or why that could not be
 * checked; null when it touches none. @internal
 */
export async function symlinksNamed(run: GitRun, apply: GitApplyCommand, timeoutMs: number): Promise<string | null> {
  const result = await run(apply.links, apply.env);
  if (result.exitCode !== 0 || result.timedOut || result.aborted)
    return `the patch was not applied: whether it touches a symlink could not be checked (${result.timedOut ? `timed out after ${timeoutMs} ms` : why(result)})`;
  const links = [...new Set(result.stdoutTail.split('\n').filter((line) => line !== ''))];
  if (links.length === 0) return null;
  return `the patch was refused: it touches ${links
    .slice(0, 5)
    .map((link) => `"${link}"`)
    .join(
      ', ',
    )}, a symlink in the workspace, which git would follow, copy, move or replace; this applier never creates, changes or removes symlinks`;
}

/** A hash of what each path the patch touches holds now, or null when git could not say. @internal */
export async function fingerprint(run: GitRun, apply: GitApplyCommand): Promise<string | null> {
  const result = await run(apply.fingerprint, apply.env);
  const hash = result.stdoutTail.trim();
  return result.exitCode === 0 && /^[0-9a-f]{40,64}$/.test(hash) ? hash : null;
}
