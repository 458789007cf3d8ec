import { formatIssue } from '../errors.js';
import type { Clock } from '../ports/clock.js';
import type { CommandRunner } from '../ports/command-runner.js';
import type { FileSystem } from '../ports/file-system.js';
import type { FixCandidate } from './contracts/candidate.js';
import type { GapModel } from './contracts/gap.js';
import type { FixSessionState } from './contracts/session.js';
import { checkFixCandidate } from './core/check-candidates.js';
import type { ApplyResult, CandidateApplier, CandidateSource, EnvironmentProbe, ProbeInput } from './host-ports.js';

/** What a session's step works with besides its record. @internal */
export interface StepContext {
  readonly fs: FileSystem;
  readonly clock: Clock;
  readonly signal: AbortSignal;
  readonly commands: CommandRunner;
  readonly commandTimeoutMs: number;
  /** Time limit of each host call (probe, propose, apply), in ms: the call's signal aborts and the call fails. */
  readonly hostCallTimeoutMs: number;
  readonly candidates: CandidateSource;
  readonly applier: CandidateApplier;
  readonly probe: EnvironmentProbe;
  /**
   * Keeps the session's lock fresh while a host call or a command runs; `work`
   * gets a signal that fires on the step's abort and on the lock's loss.
   */
  readonly heartbeat: <T>(work: (signal: AbortSignal) => Promise<T>) => Promise<T>;
}

/** Rejects with the signal's reason when it fired: the step is left in progress, and the next one resumes it. @internal */
export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason;
}

// The message of whatever a host function threw.
const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

// How a host call ended: its value, or why it failed (what it threw, or its time limit).
type HostCallOutcome<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: string; readonly timedOut: boolean };

const TIMED_OUT = Symbol('timed out');
const ABORTED = Symbol('aborted');

// Resolves once the signal fires (the listener goes when `done` fires).
function abortedBy(signal: AbortSignal, done: AbortSignal): Promise<typeof ABORTED> {
  if (signal.aborted) return Promise.resolve(ABORTED);
  return new Promise((resolve) => {
    const onAbort = (): void => resolve(ABORTED);
    signal.addEventListener('abort', onAbort, { once: true });
    done.addEventListener('abort', () => signal.removeEventListener('abort', onAbort), { once: true });
  });
}

// Runs a host call under the heartbeat, raced against its time limit and the step's abort, so a call that never
// settles cannot hold the step (nor keep the lock fresh) for ever. A throw is { ok: false }, and so is the time
// limit (the call's signal aborts). The step's abort rejects with its reason, and the loss of the lock, which is
// not the call's fault, rejects RUN_LOCKED, so a worker that lost the session goes no further.
async function hostCall<T>(
  context: StepContext,
  call: (signal: AbortSignal) => T | Promise<T>,
): Promise<HostCallOutcome<T>> {
  throwIfAborted(context.signal);
  const limit = context.hostCallTimeoutMs;
  const timer = new AbortController();
  const done = new AbortController();
  try {
    const outcome = await context.heartbeat(async (signal) => {
      const settled = (async (): Promise<HostCallOutcome<T>> => {
        try {
          return { ok: true, value: await call(AbortSignal.any([signal, timer.signal])) };
        } catch (error) {
          return { ok: false, error: messageOf(error), timedOut: false };
        }
      })();
      const timedOut = context.clock.sleep(limit, done.signal).then(
        (): typeof TIMED_OUT => TIMED_OUT,
        () => new Promise<never>(() => {}),
      );
      const first = await Promise.race([settled, timedOut, abortedBy(signal, done.signal)]);
      // The step's abort, or the lock's loss (RUN_LOCKED): the signal's reason.
      if (first === ABORTED) throw signal.reason;
      if (first !== TIMED_OUT) return first;
      timer.abort(new Error(`the host call timed out after ${limit} ms`));
      return { ok: false, error: `timed out after ${limit} ms`, timedOut: true } as const;
    });
    throwIfAborted(context.signal);
    return outcome;
  } finally {
    done.abort();
  }
}

/** Runs the environment probe: what is missing (a throw or a malformed answer is a missing requirement). @internal */
export async function callProbe(context: StepContext, input: Omit<ProbeInput, 'signal'>): Promise<string[]> {
  const outcome = await hostCall(context, (signal) => context.probe.probe({ ...input, signal }));
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

/**
 * Asks the candidate source for fixes. Each candidate is checked on its own:
 * a malformed one, or one nested too deep to check, is skipped with the
 * reason (its JSON path) and the others are kept; a return that
 * is not an array, and a throw, are a failed proposal with the reason.
 *
 * @internal
 */
export async function callPropose(context: StepContext, state: FixSessionState, gap: GapModel): Promise<Proposal> {
  const session = structuredClone(state);
  const failureOutput = state.last_failure_output;
  const outcome = await hostCall(context, (signal) =>
    context.candidates.propose({ session, failureOutput, gap, signal }),
  );
  if (!outcome.ok)
    return { ok: false, error: `the candidate source ${outcome.timedOut ? '' : 'threw: '}${outcome.error}` };
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
    return { ok: false, error: `the candidate source returned a value that cannot be read: ${messageOf(error)}` };
  }
}

/** Applies a candidate: the applier's answer, or `applied: false` with why (a throw, a malformed answer). @internal */
export async function callApply(
  context: StepContext,
  candidate: FixCandidate,
  workspace: string,
): Promise<ApplyResult> {
  const outcome = await hostCall(context, (signal) => context.applier.apply(candidate, { workspace, signal }));
  if (!outcome.ok)
    return { applied: false, detail: `the applier ${outcome.timedOut ? '' : 'threw: '}${outcome.error}` };
  const answer = outcome.value as { applied?: unknown; detail?: unknown } | null;
  if (typeof answer?.applied !== 'boolean')
    return { applied: false, detail: 'the applier returned no { applied: boolean, detail } answer' };
  return { applied: answer.applied, detail: typeof answer.detail === 'string' ? answer.detail : '' };
}
