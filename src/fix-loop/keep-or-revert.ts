import type { AttemptOutcome } from './contracts/attempt.js';
import type { FixCandidate } from './contracts/candidate.js';
import type { GapModel } from './contracts/gap.js';
import { shouldRevert } from './core/keep.js';
import { callRevert, type StepContext } from './host-calls.js';
import type { ApplyResult } from './host-ports.js';

/** Where the workspace stands: its gap and the failure output that goes with it. @internal */
export interface Standing {
  readonly gap: GapModel;
  readonly failureOutput: string;
}

/**
 * What an attempt leaves once the keep policy has judged it: its outcome, the standing the session goes on from, a
 * sentence for the audit line (empty when nothing was reverted), and an escalation when a revert failed. @internal
 */
export interface Judged {
  readonly outcome: AttemptOutcome;
  readonly standing: Standing;
  readonly sentence: string;
  readonly escalate?: { readonly reason: 'revert_failed'; readonly detail: string };
}

/** Keeps an applied attempt that lowered the gap and reverts one that did not (under `keep: 'improving'`). @internal */
export async function keepOrRevert(
  context: StepContext,
  candidate: FixCandidate,
  result: ApplyResult,
  workspace: string | null,
  before: Standing,
  after: Standing,
): Promise<Judged> {
  if (!result.applied) return { outcome: 'not_applied', standing: after, sentence: '' };
  if (workspace === null || !shouldRevert(context.keep, true, before.gap.gap, after.gap.gap))
    return { outcome: 'applied', standing: after, sentence: '' };
  const undone = await callRevert(context, candidate, workspace, result.undo);
  if (undone.reverted)
    return {
      outcome: 'reverted',
      standing: before,
      sentence: ` The gap did not go down, so the fix was reverted: ${undone.detail}.`,
    };
  const detail = `"${candidate.description}" did not lower the gap (${before.gap.gap} → ${after.gap.gap}) and could not be reverted: ${undone.detail}`;
  return {
    outcome: 'applied',
    standing: after,
    sentence: ` The gap did not go down, and the revert failed: ${undone.detail}.`,
    escalate: { reason: 'revert_failed', detail },
  };
}
