import { z } from 'zod';
import { refuseInvalidOptions } from '../errors.js';
import type { CommandRunner } from '../ports/command-runner.js';
import type { FixCandidate } from './contracts/candidate.js';
import { type GitApplyCommand, gitApplyCommand, MAX_PATCH_CHARS } from './core/git-apply-command.js';
import { hint, notInWorkspace, skipped, why } from './core/git-output.js';
import { checkPatchPaths } from './core/patch-paths.js';
import { fingerprint, type GitRun, gitRunner, repositoryPrefix, symlinksNamed } from './git-apply-runs.js';
import type { ApplyContext, ApplyResult, CandidateApplier, RevertContext, RevertResult } from './host-ports.js';
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
 * `{ applied: false, detail }` — never a throw; so is a copy or rename whose
 * source, or a folder on the way to it, is a symlink. Before git applies, the
 * applier records a hash of what every touched path holds (`undo`); `revert`
 * runs `git apply --reverse` and checks the paths hold that again, else it
 * answers `reverted: false`. An unknown option key or a
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
  // The patch checked and turned into its git commands, or why it is refused before git applies anything.
  const prepare = async (candidate: FixCandidate, run: GitRun): Promise<Prepared | ApplyResult> => {
    const patch = candidate.patch;
    if (patch === undefined || patch.trim() === '')
      return { applied: false, detail: `candidate "${candidate.description}" carries no patch to apply` };
    if (patch.length > MAX_PATCH_CHARS)
      return { applied: false, detail: `the patch is ${patch.length} characters, over the 1 MiB this applier passes` };
    if (patch.includes('\0'))
      return { applied: false, detail: 'the patch contains a NUL character, which git apply cannot take as text' };
    // Git would follow an absolute, `..` or .git path (`copy from /etc/passwd`) and make symlinks: refused first.
    const headers = checkPatchPaths(patch);
    if (!headers.ok) return { applied: false, detail: `the patch was refused before git ran: ${headers.detail}` };
    const where = await repositoryPrefix(run);
    if (typeof where !== 'string') return where;
    const apply = gitApplyCommand(patch, where, headers.sections, headers.sources);
    return apply === null ? { applied: false, detail: MIXED } : { apply, where };
  };
  return {
    async apply(candidate: FixCandidate, context: ApplyContext): Promise<ApplyResult> {
      const run = gitRunner(options.commands, context, timeoutMs);
      const prepared = await prepare(candidate, run);
      if (!('apply' in prepared)) return prepared;
      const { apply, where } = prepared;
      const check = await run(`${apply.command} --check`, apply.env);
      if (check.exitCode !== 0)
        return { applied: false, detail: `git apply --check refused the patch: ${why(check)}${hint(where)}` };
      const skippedInCheck = skipped(check);
      if (skippedInCheck !== null)
        return notInWorkspace(skippedInCheck, context.workspace, 'the patch was not applied');
      const links = await symlinksNamed(run, apply, timeoutMs);
      if (links !== null) return { applied: false, detail: links };
      const before = await fingerprint(run, apply);
      if (before === null)
        return { applied: false, detail: 'the patch was not applied: the files it touches could not be read first' };
      const applied = await run(apply.command, apply.env);
      if (applied.exitCode !== 0) return { applied: false, detail: `git apply failed: ${why(applied)}` };
      const skippedInApply = skipped(applied);
      if (skippedInApply !== null)
        return notInWorkspace(skippedInApply, context.workspace, 'the rest of the patch may have been applied');
      return { applied: true, detail: `git apply applied the patch in ${context.workspace}`, undo: { before } };
    },

    async revert(candidate: FixCandidate, context: RevertContext): Promise<RevertResult> {
      const before = (context.undo as { before?: unknown } | null)?.before;
      if (typeof before !== 'string')
        return { reverted: false, detail: 'no record of the files before the patch was applied (undo.before)' };
      const run = gitRunner(options.commands, context, timeoutMs);
      const prepared = await prepare(candidate, run);
      if (!('apply' in prepared)) return { reverted: false, detail: prepared.detail };
      const { apply } = prepared;
      const check = await run(`${apply.command} --reverse --check`, apply.env);
      if (check.exitCode !== 0)
        return { reverted: false, detail: `git apply --reverse --check refused to undo the patch: ${why(check)}` };
      const undone = await run(`${apply.command} --reverse`, apply.env);
      if (undone.exitCode !== 0) return { reverted: false, detail: `git apply --reverse failed: ${why(undone)}` };
      const after = await fingerprint(run, apply);
      if (after !== before)
        return {
          reverted: false,
          detail: `git apply --reverse ran, but the files the patch touches ${after === null ? 'could not be read' : 'differ from what they held before it'}`,
        };
      return {
        reverted: true,
        detail: 'git apply --reverse undid the patch; the files it touched hold what they held before',
      };
    },
  };
}

// A patch ready for git: its commands and the workspace's folder in its repository.
interface Prepared {
  readonly apply: GitApplyCommand;
  readonly where: string;
}

const MIXED =
  'the patch mixes `diff --git` sections with plain `---`/`+++` ones, which git reads relative to different ' +
  'folders below the top of a repository: send each style as its own candidate, or the whole diff in one style';
