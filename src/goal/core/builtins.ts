import type { Issue } from '../../errors.js';
import { readOwn } from '../../kit/dot-path.js';
import { clipped } from '../../kit/shown-value.js';
import type { BuiltinCheck, CheckedBuiltin } from './builtin-check.js';
import type { CriterionStatus } from './criteria.js';
import type { EvaluationFacts, StageStatus } from './facts.js';
import { feedbackChecks } from './feedback-checks.js';
import { metricsReadableCheck, unreadableStageDetail } from './metrics-checks.js';
import type { DecisionSignal } from './precedence.js';

/** The built-in checks of an evaluation, the signals they raise, and the critical count. @public */
export interface BuiltinOutcome {
  readonly checks: readonly BuiltinCheck[];
  readonly signals: readonly DecisionSignal[];
  /** max(`summary.critical_count`, CRITICAL issues listed); 0 without a readable feedback report. */
  readonly criticalCount: number;
  /**
   * The problems of metrics.json, then the parse issues of a malformed feedback report or the fields of a readable
   * one that were ignored or coerced.
   */
  readonly issues: readonly Issue[];
}

/**
 * The built-in checks: one per pipeline stage (a stage missing from `stageStatuses` counts as pending),
 * `feedback:readable` when feedback.json is malformed, and `feedback:criticals` when it is present. @public
 */
export function evaluateBuiltins(facts: EvaluationFacts): BuiltinOutcome {
  const checked = facts.stages.map((stage) => {
    const status = readOwn(facts.stageStatuses, stage) ?? 'pending';
    const made = stageCheck(
      stage,
      status,
      facts.stageDetails === undefined ? undefined : readOwn(facts.stageDetails, stage),
    );
    const unreadable = status === 'pending' ? unreadableStageDetail(facts.metricsIssues, stage) : null;
    return unreadable === null ? made : { ...made, check: { ...made.check, detail: unreadable } };
  });
  const metrics = metricsReadableCheck(facts.metricsIssues);
  if (metrics !== null) checked.push(metrics);
  const feedback = feedbackChecks(facts);
  if (feedback.checked !== null) checked.push(feedback.checked);
  return {
    checks: checked.map((item) => item.check),
    signals: checked.flatMap((item) => item.signals),
    criticalCount: feedback.criticalCount,
    issues: [...(facts.metricsIssues ?? []), ...feedback.issues],
  };
}

/** The built-in check of one stage: passed is PASS, failed FAIL, pending PENDING (both rerun it), blocked a BLOCK. @public */
export function stageCheck(
  stage: string,
  status: StageStatus,
  said?: string,
): { readonly check: BuiltinCheck; readonly signals: readonly DecisionSignal[] } {
  const id = `stage:${stage}`;
  // What the runner said follows what the status says, once the stage did not pass.
  const told = said === undefined || said.trim() === '' ? '' : `: ${clipped(said.trim().replace(/\.$/, ''), 200)}`;
  const make = (
    checkStatus: CriterionStatus,
    detail: string,
    rerunStages: readonly string[],
    signal?: DecisionSignal['kind'],
  ): CheckedBuiltin => {
    const message = checkStatus === 'PASS' ? detail : `${detail}${told}`;
    return {
      check: { id, status: checkStatus, detail: `${message}.`, rerunStages },
      signals: signal === undefined ? [] : [{ kind: signal, source: id, message }],
    };
  };
  switch (status) {
    case 'passed':
      return make('PASS', `Stage ${stage} passed`, []);
    case 'failed':
      return make('FAIL', `Stage ${stage} failed`, [stage], 'stage_failed');
    case 'pending':
      return make('PENDING', `Stage ${stage} has not run`, [stage], 'stage_pending');
    case 'blocked':
      return make('FAIL', `Stage ${stage} is blocked`, [], 'stage_blocked');
    case 'needs_context':
      return make('PENDING', `Stage ${stage} needs context from a human`, [], 'stage_awaiting_human');
    case 'awaiting_approval':
      return make('PENDING', `Stage ${stage} awaits a human approval`, [], 'stage_awaiting_human');
    default: {
      const unreachable: never = status;
      throw new Error(`unknown stage status ${String(unreachable)}`);
    }
  }
}
