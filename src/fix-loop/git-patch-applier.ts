import { z } from 'zod';
import { refuseInvalidOptions } from '../errors.js';
import type { CommandRunner } from '../ports/command-runner.js';
import type { FixCandidate } from './contracts/candidate.js';
import { gitApplyCommand, MAX_PATCH_CHARS } from './core/git-apply-command.js';
import { hint, notInWorkspace, skipped, why } from './core/git-output.js';
import { checkPatchPaths } from './core/patch-paths.js';
import type { ApplyContext, ApplyResult, CandidateApplier } from './host-ports.js';
import { port } from './options.js';

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

// Every option has an entry (checked against GitPatchApplierOptions), so a key outside it is a misspelling.
const optionShape = {
  commands: port('commands', ['run']),
  timeoutMs: z
    .int({ error: 'timeoutMs must be a positive integer' })
    .min(1, 'timeoutMs must be a positive integer')
    .optional(),
} satisfies Record<keyof GitPatchApplierOptions, z.ZodType>;

/**
 * A {@link CandidateApplier} for unified diffs (a candidate's `patch`):
 * `diff --git` headers as `git diff --relative` writes them in the
 * workspace, or plain `---`/`+++` headers as `diff -u` writes them (git
 * strips their first folder, `a/`, unless the name has none). Runs
 * `git apply --check`, then `git apply`, in the workspace; the paths are
 * relative to it wherever it lies: below the top of a git repository, the
 * applier asks git for the workspace's folder (`git rev-parse --show-prefix`)
 * and passes it as `--directory` to a `diff --git` diff (git reads plain
 * headers relative to the workspace by itself), so `a/src/x.js` means
 * `<workspace>/src/x.js`; there a diff mixing both styles is refused. Git
 * skips, without an error, a path outside the directory it runs in; the
 * applier watches for that (`--verbose`) and reports such a patch as not
 * applied instead of claiming a change git did not make.
 *
 * The command runner has no standard input, so the diff travels in
 * environment variables (split in chunks) and the shell pipes it to git with
 * `printf`: the runner's shell must be a POSIX shell (sh, bash, dash; not
 * cmd.exe). Nothing is written to the workspace but the fix: before git
 * runs, the diff's header lines (`diff --git`, `---`/`+++`, `rename`,
 * `copy`, quoted names included) are read, and a path that is absolute,
 * climbs out with `..`, holds `//` or points into `.git`, a line that
 * makes a symlink (a mode whose type is 120000), or a mode not written as
 * git writes one (six octal digits), refuses the patch; so does a patch that
 * touches a path that is a symlink in the workspace (git would follow it or
 * replace it: a changed target, a deletion), asked after the check of every
 * path git reads in the patch (`git apply --numstat`, then `[ -L ]`). A diff that does not
 * apply, one refused for its paths or whose paths git skipped, a candidate
 * without `patch`, a patch too large for the environment (over 1 MiB) or
 * with a NUL character, and git missing or timing out are all
 * `{ applied: false, detail }` — never a throw. An unknown option key or a
 * wrong value throws `INVALID_OPTIONS` naming its path when the applier is made.
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
  refuseInvalidOptions('createGitPatchApplier', optionShape, options);
  const timeoutMs = options.timeoutMs ?? 60_000;
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
      // Git would follow an absolute, `..` or .git path (`copy from /etc/passwd`) and make symlinks: refused first.
      const headers = checkPatchPaths(patch);
      if (!headers.ok) return { applied: false, detail: `the patch was refused before git ran: ${headers.detail}` };
      const where = await repositoryPrefix(options.commands, context, timeoutMs);
      if (typeof where !== 'string') return where;
      const apply = gitApplyCommand(patch, where, headers.sections);
      if (apply === null) return { applied: false, detail: MIXED };
      const run = (args: string) =>
        options.commands.run(`${apply.command}${args}`, {
          cwd: context.workspace,
          timeoutMs,
          env: apply.env,
          signal: context.signal,
        });
      const check = await run(' --check');
      if (check.exitCode !== 0)
        return { applied: false, detail: `git apply --check refused the patch: ${why(check)}${hint(where)}` };
      const skippedInCheck = skipped(check);
      if (skippedInCheck !== null)
        return notInWorkspace(skippedInCheck, context.workspace, 'the patch was not applied');
      const links = await symlinksNamed(options.commands, apply, context, timeoutMs);
      if (links !== null) return { applied: false, detail: links };
      const applied = await run('');
      if (applied.exitCode !== 0) return { applied: false, detail: `git apply failed: ${why(applied)}` };
      const skippedInApply = skipped(applied);
      if (skippedInApply !== null)
        return notInWorkspace(skippedInApply, context.workspace, 'the rest of the patch may have been applied');
      return { applied: true, detail: `git apply applied the patch in ${context.workspace}` };
    },
  };
}

// Where the workspace lies in its git repository ('' at its top or outside any repository), or why that is unknown.
async function repositoryPrefix(
  commands: CommandRunner,
  context: ApplyContext,
  timeoutMs: number,
): Promise<string | ApplyResult> {
  const result = await commands.run('git rev-parse --show-prefix', {
    cwd: context.workspace,
    timeoutMs,
    signal: context.signal,
  });
  if (result.timedOut || result.aborted)
    return { applied: false, detail: `git rev-parse --show-prefix did not finish: ${why(result)}` };
  // Outside a repository (or without git, which the apply then reports) the paths are the workspace's own.
  return result.exitCode === 0 ? result.stdoutTail.replace(/\r?\n$/, '') : '';
}

// Why a patch that touches a symlink of the workspace is refused, or why that could not be checked; null when it
// touches none.
async function symlinksNamed(
  commands: CommandRunner,
  apply: NonNullable<ReturnType<typeof gitApplyCommand>>,
  context: ApplyContext,
  timeoutMs: number,
): Promise<string | null> {
  const result = await commands.run(apply.links, {
    cwd: context.workspace,
    timeoutMs,
    env: apply.env,
    signal: context.signal,
  });
  if (result.exitCode !== 0 || result.timedOut || result.aborted)
    return `the patch was not applied: whether it touches a symlink could not be checked (${result.timedOut ? `timed out after ${timeoutMs} ms` : why(result)})`;
  const links = result.stdoutTail.split('\n').filter((line) => line !== '');
  if (links.length === 0) return null;
  return `the patch was refused: it touches ${links
    .slice(0, 5)
    .map((link) => `"${link}"`)
    .join(
      ', ',
    )}, a symlink in the workspace, which git would follow or replace; this applier never creates, changes or removes symlinks`;
}

const MIXED =
  'the patch mixes `diff --git` sections with plain `---`/`+++` ones, which git reads relative to different ' +
  'folders below the top of a repository: send each style as its own candidate, or the whole diff in one style';
