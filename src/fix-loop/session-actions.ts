import { resolvePath } from '../kit/paths.js';
import type { FixAttempt } from './contracts/attempt.js';
import type { FixAction, IterationAction } from './contracts/decision.js';
import type { GapModel } from './contracts/gap.js';
import type { FixSessionState } from './contracts/session.js';
import { keepManualCandidates, selectCandidate } from './core/candidates.js';
import { computeGap } from './core/gap.js';
import type { Acted } from './core/machine.js';
import { callApply, callProbe, callPropose, type StepContext } from './host-calls.js';
import { keepOrRevert } from './keep-or-revert.js';
import { measureGap } from './measure.js';
import { findWorkspace } from './workspace.js';

/** Writes the record (the step in progress) before the next effect; resolves to what was written. @internal */
export type SaveState = (state: FixSessionState) => Promise<FixSessionState>;

/** Carries out one of the acting decisions of the policy (probe, measure, build or test iteration). @internal */
export function actOn(
  action: FixAction,
  state: FixSessionState,
  context: StepContext,
  save: SaveState,
): Promise<Acted> {
  switch (action) {
    case 'probe':
      return probe(state, context);
    case 'measure':
      return measure(state, context);
    case 'build_iteration':
    case 'test_iteration':
      return iterate(action, state, context, save);
    case 'converged':
    case 'escalate':
      throw new Error(`unreachable: ${action} is not an action to carry out`);
  }
}

// Probes the environment; a missing requirement becomes the gap (which escalates infra_gap).
async function probe(state: FixSessionState, context: StepContext): Promise<Acted> {
  const workspace = await findWorkspace(context.fs, state.workspace);
  const missing = await callProbe(context, {
    workspace: workspace.ok ? workspace.absolute : resolvePath(context.fs.root, state.workspace),
    workspacePath: state.workspace,
    ...(state.build_command === undefined ? {} : { buildCommand: state.build_command }),
    ...(state.test_command === undefined ? {} : { testCommand: state.test_command }),
  });
  const gap =
    missing.length === 0
      ? state.gap
      : computeGap({
          build: { failing: false, error_count: 0 },
          tests: { failed: 0, passed: 0, total: 0 },
          requirements: { missing },
        });
  const description =
    missing.length === 0
      ? 'Probed the environment: the workspace and the programs of the commands are present.'
      : `Probed the environment: ${missing.join('; ')}.`;
  return { state: { ...state, environment_verified: true, gap }, description, applied: null };
}

// Measures the gap with the session's build and test commands.
async function measure(state: FixSessionState, context: StepContext): Promise<Acted> {
  const measured = await measureGap(context, state, await findWorkspace(context.fs, state.workspace));
  const gap = computeGap(measured.parts);
  return {
    state: { ...state, gap, last_failure_output: measured.failureOutput },
    description: `Measured the gap: ${measured.summary} (gap ${gap.gap}).`,
    applied: null,
  };
}

// Proposes, selects and applies a fix, then measures the gap again.
async function iterate(
  action: IterationAction,
  state: FixSessionState,
  context: StepContext,
  save: SaveState,
): Promise<Acted> {
  const before = state.gap;
  if (before === null) throw new Error('unreachable: an iteration with no gap measured');
  const proposal = await callPropose(context, state, before);
  const index = state.attempts.length;
  if (!proposal.ok) {
    const attempt = failedProposal(action, index, before, proposal.error);
    const description = `${label(action)}: ${proposal.error}; no candidate was applied.`;
    return {
      state: { ...state, attempts: [...state.attempts, attempt] },
      description,
      applied: null,
      attempt,
    };
  }
  const { candidates, skipped } = proposal;
  // Kept whichever step escalates later, so the report lists them even when this step applies an automatic fix.
  const kept = { ...state, manual_candidates: keepManualCandidates(state.manual_candidates, candidates) };
  const note = skipped.length === 0 ? '' : ` Skipped ${skipped.length} malformed candidate(s): ${skipped.join(' | ')}.`;
  const selection = selectCandidate(candidates, state.tried);
  const proposed = `${label(action)}: ${candidates.length} candidate(s) proposed.${note}`;
  if (selection.kind === 'escalate') {
    const escalate = { reason: selection.reason, detail: `${selection.rationale}${note}` };
    const description = `${proposed} ${selection.rationale}`;
    return { state: kept, description, applied: null, candidates, escalate };
  }
  const { candidate, hash } = selection;
  const pending: FixAttempt = {
    index,
    action,
    candidate_description: candidate.description,
    candidate_hash: hash,
    outcome: 'interrupted',
    gap_before: before.gap,
    gap_after: null,
    detail: 'the step was cut off before the outcome of this attempt was recorded',
  };
  // Tried before the applier runs: a crash from here on never applies this candidate again.
  const marked = await save({
    ...kept,
    tried: [...state.tried, hash],
    attempts: [...state.attempts, pending],
    step_in_progress: { step_index: state.step_count, action, candidate_hash: hash },
  });
  const workspace = await findWorkspace(context.fs, state.workspace);
  const result = workspace.ok
    ? await callApply(context, candidate, workspace.absolute)
    : { applied: false, detail: workspace.detail };
  const measured = await measureGap(context, marked, workspace);
  const gap = computeGap(measured.parts);
  const judged = await keepOrRevert(
    context,
    candidate,
    result,
    workspace.ok ? workspace.absolute : null,
    { gap: before, failureOutput: state.last_failure_output },
    { gap, failureOutput: measured.failureOutput },
  );
  const attempt: FixAttempt = { ...pending, outcome: judged.outcome, gap_after: gap.gap, detail: result.detail };
  const description = `${proposed} ${result.applied ? 'Applied' : 'Could not apply'} "${candidate.description}" (${selection.rationale}): ${result.detail}. Then measured: ${measured.summary} (gap ${before.gap} → ${gap.gap}).${judged.sentence}`;
  const { standing } = judged;
  return {
    state: {
      ...marked,
      attempts: [...state.attempts, attempt],
      gap: standing.gap,
      last_failure_output: standing.failureOutput,
    },
    description,
    applied: result.applied ? candidate.description : null,
    candidates,
    attempt,
    ...(judged.escalate === undefined ? {} : { escalate: judged.escalate }),
  };
}

// The attempt of an iteration whose candidate source failed: nothing applied, the gap as it was.
function failedProposal(action: IterationAction, index: number, before: GapModel, error: string): FixAttempt {
  return {
    index,
    action,
    candidate_description: '(none: the candidate source failed)',
    candidate_hash: '',
    outcome: 'not_applied',
    gap_before: before.gap,
    gap_after: before.gap,
    detail: error,
  };
}

const label = (action: IterationAction): string =>
  action === 'build_iteration' ? 'Build iteration' : 'Test iteration';
