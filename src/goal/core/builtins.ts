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
 * The built-in checks: one per pipeline stage (a stage missing
 * from `stageStatuses` counts as pending), `feedback:readable` when
 * feedback.json is malformed, and `feedback:criticals` when it is present.
 * A present report's unreadable fields are reported as issues and the rest
 * is used; only when `summary.critical_count` (or `summary`, or the `issues`
 * list) cannot be read and no critical issue is known does
 * `feedback:readable` fail, rerunning the feedback stage. A metrics.json the
 * loop refuses to run on fails `metrics:readable` (BLOCK); every problem of
 * metrics.json is an issue at its JSON path, and a pending stage whose
 * `stage_status` entry could not be read says so. Pure.
 *
 * @public
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

/**
 * The built-in check of one stage: passed is PASS; failed is FAIL and reruns
 * it; pending is PENDING and reruns it; blocked is FAIL with a BLOCK signal;
 * needs_context and awaiting_approval are PENDING with an ASK_USER signal.
 * What the stage's runner `said` of a stage that did not pass follows the
 * status in the detail (`Stage 07-code failed: 3 of 12 tests failed.`). Pure.
 *
 * @public
 */
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
