import { formatIssue } from '../errors.js';
import { failureSentence } from '../kit/failure-sentence.js';
import type { CommandRunner } from '../ports/command-runner.js';
import type { FileSystem } from '../ports/file-system.js';
import { boundedHostCall, describeThrown, type HostCallBounds } from '../runtime/host-call.js';
import type { FixCandidate } from './contracts/candidate.js';
import type { GapModel } from './contracts/gap.js';
import type { FixSessionState } from './contracts/session.js';
import { checkFixCandidate } from './core/check-candidates.js';
import type { KeepPolicy } from './core/keep.js';
import type {
  ApplyResult,
  CandidateApplier,
  CandidateSource,
  EnvironmentProbe,
  ProbeInput,
  RevertResult,
} from './host-ports.js';

/**
 * What a session's step works with besides its record; its host calls (probe, propose, apply) are bounded by
 * `hostCallTimeoutMs` and the step's signal. @internal
 */
export interface StepContext extends HostCallBounds {
  readonly fs: FileSystem;
  readonly commands: CommandRunner;
  readonly commandTimeoutMs: number;
  readonly candidates: CandidateSource;
  readonly applier: CandidateApplier;
  readonly keep: KeepPolicy;
  /** Candidates the caller gave this step, used instead of asking the source. */
  readonly given?: readonly FixCandidate[] | undefined;
  readonly probe: EnvironmentProbe;
  /**
   * Keeps the session's lock fresh while a host call or a command runs; `work`
   * gets a signal that fires on the step's abort and on the lock's loss.
   */
  readonly heartbeat: <T>(work: (signal: AbortSignal) => Promise<T>) => Promise<T>;
}

/** Runs the environment probe: what is missing (a throw or a malformed answer is a missing requirement). @internal */
export async function callProbe(context: StepContext, input: Omit<ProbeInput, 'signal'>): Promise<string[]> {
  const outcome = await boundedHostCall(context, (signal) => context.probe.probe({ ...input, signal }));
  if (!outcome.ok) return [`the environment probe ${outcome.timedOut ? '' : 'failed: '}${outcome.error}`];
  const missing = (outcome.value as { missing?: unknown } | null)?.missing;
  if (!Array.isArray(missing) || !missing.every((line) => typeof line === 'string'))
    return ['the environment probe returned no list of missing requirements ({ missing: string[] })'];
  return [...missing];
}

/** The candidates a source proposed that are well formed, and why each other one was skipped. @internal */
export type Proposal =
  | { readonly ok: true; readonly candidates: FixCandidate[]; readonly skipped: string[] }
  | { readonly ok: false; readonly error: string };

/** Asks the candidate source for fixes. @internal */
export async function callPropose(context: StepContext, state: FixSessionState, gap: GapModel): Promise<Proposal> {
  if (context.given !== undefined) return { ok: true, candidates: [...context.given], skipped: [] };
  const session = structuredClone(state);
  const failureOutput = state.last_failure_output;
  const outcome = await boundedHostCall(context, (signal) =>
    context.candidates.propose({ session, failureOutput, gap, signal }),
  );
  if (!outcome.ok) return { ok: false, error: failureSentence('the candidate source', outcome) };
  try {
    const value: unknown = outcome.value;
    if (!Array.isArray(value))
      return {
        ok: false,
        error: `the candidate source returned ${value === null ? 'null' : typeof value}, not an array`,
      };
    const candidates: FixCandidate[] = [];
    const skipped: string[] = [];
    value.forEach((item: unknown, index) => {
      const checked = checkFixCandidate(item, index);
      if (checked.success) candidates.push(checked.data);
      else skipped.push(checked.issues.map(formatIssue).join('; '));
    });
    return { ok: true, candidates, skipped };
  } catch (error) {
    return { ok: false, error: `the candidate source returned a value that cannot be read: ${describeThrown(error)}` };
  }
}

/** Applies a candidate: the applier's answer, or `applied: false` with why (a throw, a malformed answer). @internal */
export async function callApply(
  context: StepContext,
  candidate: FixCandidate,
  workspace: string,
): Promise<ApplyResult> {
  const outcome = await boundedHostCall(context, (signal) => context.applier.apply(candidate, { workspace, signal }));
  if (!outcome.ok) return { applied: false, detail: failureSentence('the applier', outcome) };
  const answer = outcome.value as { applied?: unknown; detail?: unknown; undo?: unknown } | null;
  if (typeof answer?.applied !== 'boolean')
    return { applied: false, detail: 'the applier returned no { applied: boolean, detail } answer' };
  const detail = typeof answer.detail === 'string' ? answer.detail : '';
  return { applied: answer.applied, detail, ...(answer.undo === undefined ? {} : { undo: answer.undo }) };
}

/** Reverts an applied candidate: the applier's answer, or `reverted: false` with why (a throw, a malformed answer). @internal */
export async function callRevert(
  context: StepContext,
  candidate: FixCandidate,
  workspace: string,
  undo: unknown,
): Promise<RevertResult> {
  const revert = context.applier.revert;
  if (revert === undefined) return { reverted: false, detail: 'the applier has no revert()' };
  const outcome = await boundedHostCall(context, (signal) =>
    revert.call(context.applier, candidate, { workspace, signal, undo }),
  );
  if (!outcome.ok) return { reverted: false, detail: failureSentence("the applier's revert", outcome) };
  const answer = outcome.value as { reverted?: unknown; detail?: unknown } | null;
  if (typeof answer?.reverted !== 'boolean')
    return { reverted: false, detail: 'the applier returned no { reverted: boolean, detail } answer' };
  return { reverted: answer.reverted, detail: typeof answer.detail === 'string' ? answer.detail : '' };
}
