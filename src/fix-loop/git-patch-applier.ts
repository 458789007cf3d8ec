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

/** Options of {@link createGitPatchApplier}. @public */
export interface GitPatchApplierOptions {
  /** Runs `git` (the execa runner of `goal-loop/node`, or a fake in tests). */
  readonly commands: CommandRunner;
  /** Time limit of each `git apply` run, in ms (default 60 000). */
  readonly timeoutMs?: number;
}

const optionShape = {
  commands: port('commands', ['run']),
  timeoutMs: z
    .int({ error: 'timeoutMs must be a positive integer' })
    .min(1, 'timeoutMs must be a positive integer')
    .optional(),
} satisfies Record<keyof GitPatchApplierOptions, z.ZodType>;

/**
 * A {@link CandidateApplier} for unified diffs (`git diff` or `diff -u` headers), applied with `git apply` in the
 * workspace after its paths are checked (no absolute, `..`, `.git` or symlink path; see docs/fix-loop.md). Every
 * refusal is `{ applied: false, detail }`, never a throw; `revert` runs `git apply --reverse` and checks the files
 * hold what they held before. The command runner's shell must be POSIX.
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
