import type { FixCandidate } from './contracts/candidate.js';
import type { GapModel } from './contracts/gap.js';
import type { FixSessionState } from './contracts/session.js';

/**
 * What a {@link CandidateSource} receives: the session record (a copy of state.json, snake_case), the tail of the last
 * failing output, the last gap, and a signal.
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
 * The host's source of fixes (an agent, a rule base) for the current failure. Candidates are alternatives under
 * `keep: 'improving'` and pile up under `keep: 'all'`. A malformed candidate is skipped (the reason audited); a throw
 * is the attempt's outcome, never a crash of `step()`.
 *
 * @public
 */
export interface CandidateSource {
  propose(input: CandidateProposalInput): readonly FixCandidate[] | Promise<readonly FixCandidate[]>;
}

/** Where a {@link CandidateApplier} works: the workspace's absolute path (its commands' cwd), and a signal. @public */
export interface ApplyContext {
  readonly workspace: string;
  readonly signal: AbortSignal;
}

/**
 * What an applier reports: whether the fix was applied, one sentence of detail, and the `undo` (any JSON) its
 * `revert` needs.
 *
 * @public
 */
export interface ApplyResult {
  readonly applied: boolean;
  readonly detail: string;
  readonly undo?: unknown;
}

/** Where a {@link CandidateApplier} reverts: the {@link ApplyContext} and the `undo` its `apply` returned. @public */
export interface RevertContext extends ApplyContext {
  readonly undo: unknown;
}

/**
 * Whether the workspace is back as before the fix (checked, not assumed), with a sentence of detail; `reverted: false`
 * escalates `revert_failed`.
 *
 * @public
 */
export interface RevertResult {
  readonly reverted: boolean;
  readonly detail: string;
}

/**
 * Carries out an automatic candidate in the workspace, and undoes it (unified diffs: `createGitPatchApplier`). A fix
 * that cannot be applied is `{ applied: false, detail }`; a throw or malformed answer is `not_applied`.
 *
 * @public
 */
export interface CandidateApplier {
  apply(candidate: FixCandidate, context: ApplyContext): Promise<ApplyResult>;
  /** Undoes exactly what `apply` did and checks it; without it every attempt is kept. A throw is a failed revert. */
  revert?(candidate: FixCandidate, context: RevertContext): Promise<RevertResult>;
}

/**
 * What an {@link EnvironmentProbe} receives: the workspace absolute (`workspace`) and root-relative (`workspacePath`),
 * the build and test commands, and a signal.
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

/** What the environment lacks, one sentence each (empty: verified); any escalates `infra_gap`. @public */
export interface ProbeResult {
  readonly missing: readonly string[];
}

/**
 * Checks the environment can run the session's commands (default: the workspace exists, the programs are on PATH,
 * `node_modules` is present when dependencies are declared). A throw is a missing requirement.
 *
 * @public
 */
export interface EnvironmentProbe {
  probe(input: ProbeInput): Promise<ProbeResult>;
}
