import type { Issue } from '../../errors.js';
import { readOwn } from '../../kit/dot-path.js';
import { mapAgentToStage, orderByPipeline, withFeedbackRefresh } from '../../pipeline/stage-mapping.js';
import type { FeedbackIssueView, FeedbackView } from '../contracts/feedback-view.js';
import type { CriterionStatus } from './criteria.js';
import type { EvaluationFacts, StageStatus } from './facts.js';
import { metricsReadableCheck, unreadableStageDetail } from './metrics-checks.js';
import type { DecisionSignal } from './precedence.js';

/** One built-in check over stage statuses and the feedback report. @public */
export interface BuiltinCheck {
  /**
   * `stage:<stage id>`, `feedback:criticals`, `feedback:readable` (malformed, or its critical count unreadable) or
   * `metrics:readable` (a metrics.json the loop refuses to run on).
   */
  readonly id: string;
  readonly status: CriterionStatus;
  readonly detail: string;
  readonly rerunStages: readonly string[];
}

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

interface Checked {
  readonly check: BuiltinCheck;
  readonly signals: readonly DecisionSignal[];
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
    const made = stageCheck(stage, status);
    const unreadable = status === 'pending' ? unreadableStageDetail(facts.metricsIssues, stage) : null;
    return unreadable === null ? made : { ...made, check: { ...made.check, detail: unreadable } };
  });
  const metrics = metricsReadableCheck(facts.metricsIssues);
  if (metrics !== null) checked.push(metrics);
  const feedback = facts.feedback;
  let criticalCount = 0;
  let issues: Issue[] = [];
  switch (feedback.state) {
    case 'missing':
      break;
    case 'malformed': {
      const rerunStages = withFeedbackRefresh([], facts.stages, facts.feedbackStage, { reportOutdated: true });
      issues = feedback.issues.map((issue) => ({ ...issue, message: `feedback.json: ${issue.message}` }));
      const check: BuiltinCheck = {
        id: 'feedback:readable',
        status: 'FAIL',
        detail: `feedback.json is malformed (${issues.length} issue(s)); its critical issues and goal_evaluation cannot be read.`,
        rerunStages,
      };
      checked.push({
        check,
        signals: [{ kind: 'feedback_unreadable', source: check.id, message: 'feedback.json is malformed' }],
      });
      break;
    }
    case 'present': {
      issues = (feedback.issues ?? []).map((issue) => ({ ...issue, message: `feedback.json: ${issue.message}` }));
      const criticals = criticalsCheck(feedback.report, facts.stages);
      criticalCount = criticals.count;
      const countLost =
        issues.find((issue) => issue.code !== 'coerced' && COUNT_PATHS.has(issue.path.join('.'))) ??
        silentOnCriticals(feedback.raw);
      checked.push(countLost !== undefined && criticals.count === 0 ? unknownCountCheck(facts, countLost) : criticals);
      break;
    }
    default: {
      const unreachable: never = feedback;
      throw new Error(`unknown feedback state ${String(unreachable)}`);
    }
  }
  return {
    checks: checked.map((item) => item.check),
    signals: checked.flatMap((item) => item.signals),
    criticalCount,
    issues: [...(facts.metricsIssues ?? []), ...issues],
  };
}

/**
 * The built-in check of one stage: passed is PASS; failed is FAIL and reruns
 * it; pending is PENDING and reruns it; blocked is FAIL with a BLOCK signal;
 * needs_context and awaiting_approval are PENDING with an ASK_USER signal.
 * Pure.
 *
 * @public
 */
export function stageCheck(
  stage: string,
  status: StageStatus,
): { readonly check: BuiltinCheck; readonly signals: readonly DecisionSignal[] } {
  const id = `stage:${stage}`;
  const make = (
    checkStatus: CriterionStatus,
    detail: string,
    rerunStages: readonly string[],
    signal?: DecisionSignal['kind'],
  ): Checked => ({
    check: { id, status: checkStatus, detail: `${detail}.`, rerunStages },
    signals: signal === undefined ? [] : [{ kind: signal, source: id, message: detail }],
  });
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

// The fields that say how many critical issues there are: when one cannot be read, the count is unknown.
const COUNT_PATHS = new Set(['summary', 'summary.critical_count', 'issues']);

// A report with neither `summary.critical_count` nor an `issues` list (`{}`, a foreign file) says nothing of criticals.
function silentOnCriticals(raw: unknown): Issue | undefined {
  const report = raw as { summary?: { critical_count?: unknown }; issues?: unknown };
  if (report.summary?.critical_count !== undefined || Array.isArray(report.issues)) return undefined;
  return { code: 'missing', path: ['summary', 'critical_count'], message: 'missing, and there is no issues list' };
}

// feedback:readable when a count field cannot be read and no critical issue is known: the feedback stage reruns.
function unknownCountCheck(facts: EvaluationFacts, lost: Issue): Checked {
  const field = lost.path.join('.');
  const check: BuiltinCheck = {
    id: 'feedback:readable',
    status: 'FAIL',
    detail: `feedback.json reports no critical issue it can read, but its ${field} cannot be read (${lost.message}), so the count of critical issues is unknown.`,
    rerunStages: withFeedbackRefresh([], facts.stages, facts.feedbackStage, { reportOutdated: true }),
  };
  return {
    check,
    signals: [{ kind: 'feedback_unreadable', source: check.id, message: `${field} cannot be read` }],
  };
}

// feedback:criticals: RETRY with the stages the critical issues map to; BLOCK for one nobody can remediate.
function criticalsCheck(report: FeedbackView, stages: readonly string[]): Checked & { readonly count: number } {
  const listed = report.issues.filter((issue) => (issue.severity ?? '').toUpperCase() === 'CRITICAL');
  const declared = report.summary?.critical_count;
  const count = Math.max(typeof declared === 'number' && Number.isFinite(declared) ? declared : 0, listed.length);
  const id = 'feedback:criticals';
  if (count <= 0)
    return {
      count: 0,
      check: { id, status: 'PASS', detail: 'feedback.json reports no critical issues.', rerunStages: [] },
      signals: [],
    };
  const routed = listed.map((issue, index) => ({
    name: issue.id ?? `critical #${index + 1}`,
    stage: mapAgentToStage(issue.remediation?.agent_to_rerun, stages),
    auto: autoRemediable(issue),
  }));
  const rerunStages = orderByPipeline(
    routed.flatMap((item) => (item.stage === null ? [] : [item.stage])),
    stages,
  );
  const stuck = routed.filter((item) => item.stage === null && !item.auto);
  const routes = routed.map((item) =>
    item.stage !== null
      ? `${item.name} → ${item.stage}`
      : item.auto
        ? `${item.name} auto-remediable`
        : `${item.name} has no remediation path`,
  );
  const unlisted =
    count > listed.length ? `; summary.critical_count says ${count} but only ${listed.length} listed` : '';
  const detail = `feedback.json reports ${count} critical issue(s)${routes.length > 0 ? ` (${routes.join('; ')})` : ''}${unlisted}.`;
  const signals: DecisionSignal[] = [
    { kind: 'critical_issue', source: id, message: `feedback.json reports ${count} critical issue(s)` },
  ];
  for (const item of stuck) {
    signals.push({
      kind: 'unremediable_critical',
      source: id,
      message: `Critical issue ${item.name} has no remediation path (no agent_to_rerun that maps to a pipeline stage, and not auto-remediable)`,
    });
  }
  return { count, check: { id, status: 'FAIL', detail, rerunStages }, signals };
}

// True when the issue (or its remediation) says it can be fixed automatically.
function autoRemediable(issue: FeedbackIssueView): boolean {
  return issue.can_auto_remediate === true || issue.remediation?.can_auto_remediate === true;
}
