import { candidateFromRecord, candidateRecord, type FixCandidateRecord } from '../contracts/candidate.js';
import type { EscalationReason } from '../contracts/decision.js';
import type { EscalationReport } from '../contracts/escalation.js';
import type { FixSessionState } from '../contracts/session.js';
import { compareCandidates } from './candidates.js';
import { heldAttempts } from './keep.js';

/** How many manual candidates an escalation report lists at most (the best ones). @public */
export const MAX_REPORTED_CANDIDATES = 5;

/**
 * The recommended next step for each escalation reason, for a report that lists untried manual candidates.
 *
 * @public
 */
export const NEXT_STEPS: Readonly<Record<EscalationReason, string>> = Object.freeze({
  max_attempts:
    'Read the attempts in this report and the last failure output, then fix the remaining failures by hand or start a new session with another approach.',
  worsening_trend:
    'Revert the changes of the attempts that made the gap worse, then fix the failure by hand from the last state that reduced it.',
  all_auto_tried:
    'Apply one of the manual candidates this report lists or give the candidate source more context about the failure, then start a new session.',
  manual_required:
    'Apply the top manual candidate this report lists by hand, then start a new session to confirm the fix.',
  infra_gap:
    'Run a setup script for the missing requirements in the workspace (for example `npm ci`), then start a new session.',
  no_progress:
    'Read the last failure output and fix the failure by hand, or give the candidate source more context, since the last attempts changed nothing.',
  wall_time:
    'Run the session again with a larger wall-time budget, or step it one call at a time to see which step takes long.',
  revert_failed:
    'Compare the workspace with its version control (git status, git diff) and restore the files of the attempt that could not be reverted, then start a new session.',
} satisfies Record<EscalationReason, string>);

// The next step of a report listing no manual candidate, for the reasons whose usual step applies one.
const WITHOUT_MANUAL: Readonly<Partial<Record<EscalationReason, string>>> = Object.freeze({
  all_auto_tried:
    'No candidate is left to try, automatic or manual: give the candidate source more context about the failure (the last failure output, the files involved) or fix it by hand, then start a new session.',
  manual_required:
    'Fix the failure by hand, as the candidate source judged it needs a human, then start a new session to confirm the fix.',
});

// The worsening_trend step once the session itself reverted the attempts that made the gap worse.
const WORSE_REVERTED =
  'The attempts that made the gap worse were reverted: read the last failure output and fix it by hand, or give the candidate source more context, then start a new session.';

/** The part of a session's record an escalation report is built from. @public */
export type EscalationSource = Pick<FixSessionState, 'session_id' | 'goal' | 'goal_type' | 'attempts' | 'gap'>;

/**
 * Builds the report of an escalated session (as escalation.json holds it): the attempts, those left applied and those
 * that made the gap worse, the last gap, the best untried manual candidates, the reason, and the next step. Pure.
 *
 * @example
 * ```ts
 * const decision = decideNextAction(state);
 * if (decision.reason !== undefined) {
 *   const report = buildEscalationReport(state, decision.reason, [], decision.rationale);
 *   await writeFile('ESCALATION.md', renderEscalationMarkdown(report));
 * }
 * ```
 * @public
 */
export function buildEscalationReport(
  state: EscalationSource,
  reason: EscalationReason,
  manualCandidates: readonly FixCandidateRecord[],
  detail = '',
): EscalationReport {
  const held = new Set(heldAttempts(state.attempts));
  const applied = state.attempts.filter((attempt) => held.has(attempt.index));
  const worsening = applied.filter((attempt) => attempt.gap_after !== null && attempt.gap_after > attempt.gap_before);
  const manual = manualCandidates.filter((candidate) => candidate.mutation_type === 'manual').map(candidateFromRecord);
  const top = manual.sort(compareCandidates).slice(0, MAX_REPORTED_CANDIDATES).map(candidateRecord);
  return {
    session_id: state.session_id,
    goal: state.goal,
    goal_type: state.goal_type,
    attempts_made: state.attempts.length,
    final_gap: state.gap,
    attempts_summary: state.attempts.map((attempt) => ({
      index: attempt.index,
      action: attempt.action,
      candidate: attempt.candidate_description,
      outcome: attempt.outcome,
      gap_before: attempt.gap_before,
      gap_after: attempt.gap_after,
    })),
    top_remaining_candidates: top,
    applied_attempts: applied.map((attempt) => attempt.index),
    worsening_attempts: worsening.map((attempt) => attempt.index),
    escalation_reason: reason,
    detail,
    recommended_next_step: revertFirst(
      reason,
      worsening.map((attempt) => attempt.index),
      state.attempts.some((attempt) => attempt.outcome === 'reverted'),
      (top.length === 0 ? WITHOUT_MANUAL[reason] : undefined) ?? NEXT_STEPS[reason],
    ),
  };
}

// Reverting the worsening changes comes first while the workspace still holds some.
function revertFirst(reason: EscalationReason, worsening: readonly number[], reverted: boolean, step: string): string {
  if (reason === 'worsening_trend' && worsening.length === 0 && reverted) return WORSE_REVERTED;
  if (worsening.length === 0 || reason === 'worsening_trend') return step;
  const which = worsening.map((index) => String(index + 1)).join(', ');
  const many = worsening.length > 1;
  const lead = `Revert the change${many ? 's' : ''} of attempt${many ? 's' : ''} ${which}, which made the gap worse and ${many ? 'are' : 'is'} still in the workspace`;
  return `${lead}; then ${step.charAt(0).toLowerCase()}${step.slice(1)}`;
}
