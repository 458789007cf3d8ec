import type { FixCandidate } from './contracts/candidate.js';
import type { GapModel } from './contracts/gap.js';
import type { FixSessionState } from './contracts/session.js';

/**
 * What a {@link CandidateSource} receives: the session's record as it stands
 * (a copy of state.json, snake_case like every on-disk record), the tail of
 * the last failing command's output, the gap last measured, and a signal
 * that aborts the call.
 *
 * @public
 */
export interface CandidateProposalInput {
  readonly session: Readonly<FixSessionState>;
  readonly failureOutput: string;
  readonly gap: GapModel;
  readonly signal: AbortSignal;
}

/**
 * The host's source of fixes (an agent, a rule base): proposes candidates for
 * the current failure, against the workspace as it is now. Candidates are
 * alternatives: with `keep: 'improving'` (the default) an applied fix that
 * does not lower the gap is reverted before the next one, so the workspace is
 * as the last improving attempt left it; with `keep: 'all'` fixes pile up on
 * each other (`input.session.attempts` lists what was applied). Its return is checked candidate by candidate: a
 * malformed candidate is skipped and the reason written in the step's audit
 * line; a throw is recorded as the attempt's outcome, never a crash of
 * `step()`.
 *
 * @public
 */
export interface CandidateSource {
  propose(input: CandidateProposalInput): readonly FixCandidate[] | Promise<readonly FixCandidate[]>;
}

/**
 * Where a {@link CandidateApplier} works: the workspace as an absolute path
 * (the working directory of its commands), and a signal.
 *
 * @public
 */
export interface ApplyContext {
  readonly workspace: string;
  readonly signal: AbortSignal;
}

/**
 * What an applier reports: whether the fix was applied, one sentence of detail, and what its `revert` needs to undo
 * exactly this application (`undo`, any JSON: the git applier's record of the touched files as they were).
 *
 * @public
 */
export interface ApplyResult {
  readonly applied: boolean;
  readonly detail: string;
  readonly undo?: unknown;
}

/**
 * Where a {@link CandidateApplier} reverts a fix: the workspace and signal of {@link ApplyContext}, and the `undo`
 * its `apply` returned.
 *
 * @public
 */
export interface RevertContext extends ApplyContext {
  readonly undo: unknown;
}

/**
 * What a revert reports: whether the workspace is back as it was before the fix (checked, not assumed), and one
 * sentence of detail. `reverted: false` escalates the session (`revert_failed`): the workspace holds what no attempt
 * record describes, and only a human can tell what to keep.
 *
 * @public
 */
export interface RevertResult {
  readonly reverted: boolean;
  readonly detail: string;
}

/**
 * Carries out an automatic candidate in the workspace, and undoes it (for unified diffs:
 * `createGitPatchApplier`). A fix that cannot be applied is
 * `{ applied: false, detail }`; a throw or a malformed answer is recorded the
 * same way (`not_applied`), never a crash of `step()`.
 *
 * @public
 */
export interface CandidateApplier {
  apply(candidate: FixCandidate, context: ApplyContext): Promise<ApplyResult>;
  /**
   * Undoes exactly what `apply` did for this candidate and checks the workspace is as it was before (optional: an
   * applier without it keeps every attempt, as `keep: 'all'`). A throw is a failed revert.
   */
  revert?(candidate: FixCandidate, context: RevertContext): Promise<RevertResult>;
}

/**
 * What an {@link EnvironmentProbe} receives: the workspace as an absolute
 * path (`workspace`, as {@link ApplyContext} has it) and as the session names
 * it, relative to the FileSystem root (`workspacePath`), the session's build
 * and test commands, and a signal.
 *
 * @public
 */
export interface ProbeInput {
  readonly workspace: string;
  readonly workspacePath: string;
  readonly buildCommand?: string;
  readonly testCommand?: string;
  readonly signal: AbortSignal;
}

/**
 * What the environment lacks, one sentence per requirement naming it and
 * where it was looked for (empty: verified). A missing requirement escalates
 * the session (`infra_gap`), since a human must set it up.
 *
 * @public
 */
export interface ProbeResult {
  readonly missing: readonly string[];
}

/**
 * Checks that the environment can run the session's commands. The default
 * probe checks that the workspace exists, that the build and test commands'
 * programs are on PATH, and that `node_modules` is present when the
 * workspace's package.json declares dependencies. A throw is a missing
 * requirement naming the error.
 *
 * @public
 */
export interface EnvironmentProbe {
  probe(input: ProbeInput): Promise<ProbeResult>;
}
