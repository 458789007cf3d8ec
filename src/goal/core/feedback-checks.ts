// The built-in checks of feedback.json: `feedback:readable` when it is malformed or its critical count cannot be read,
// `feedback:criticals` with the stages its critical issues map to (BLOCK for one nobody can remediate).
import type { Issue } from '../../errors.js';
import { mapAgentToStage, orderByPipeline, withFeedbackRefresh } from '../../pipeline/stage-mapping.js';
import type { FeedbackIssueView, FeedbackView } from '../contracts/feedback-view.js';
import type { BuiltinCheck, CheckedBuiltin } from './builtin-check.js';
import type { EvaluationFacts } from './facts.js';
import type { DecisionSignal } from './precedence.js';

/** The check feedback.json adds. @internal */
export function feedbackChecks(facts: EvaluationFacts): {
  readonly checked: CheckedBuiltin | null;
  readonly criticalCount: number;
  readonly issues: readonly Issue[];
} {
  const feedback = facts.feedback;
  switch (feedback.state) {
    case 'missing':
      return { checked: null, criticalCount: 0, issues: [] };
    case 'malformed': {
      const rerunStages = withFeedbackRefresh([], facts.stages, facts.feedbackStage, { reportOutdated: true });
      const issues = feedback.issues.map((issue) => ({ ...issue, message: `feedback.json: ${issue.message}` }));
      const check: BuiltinCheck = {
        id: 'feedback:readable',
        status: 'FAIL',
        detail: `feedback.json is malformed (${issues.length} issue(s)); its critical issues and goal_evaluation cannot be read.`,
        rerunStages,
      };
      const signals: DecisionSignal[] = [
        { kind: 'feedback_unreadable', source: check.id, message: 'feedback.json is malformed' },
      ];
      return { checked: { check, signals }, criticalCount: 0, issues };
    }
    case 'present': {
      const issues = (feedback.issues ?? []).map((issue) => ({ ...issue, message: `feedback.json: ${issue.message}` }));
      const criticals = criticalsCheck(feedback.report, facts.stages);
      const countLost =
        issues.find((issue) => issue.code !== 'coerced' && COUNT_PATHS.has(issue.path.join('.'))) ??
        silentOnCriticals(feedback.raw);
      const checked =
        countLost !== undefined && criticals.count === 0 ? unknownCountCheck(facts, countLost) : criticals;
      return { checked, criticalCount: criticals.count, issues };
    }
    default: {
      const unreachable: never = feedback;
      throw new Error(`unknown feedback state ${String(unreachable)}`);
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
function unknownCountCheck(facts: EvaluationFacts, lost: Issue): CheckedBuiltin {
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
function criticalsCheck(report: FeedbackView, stages: readonly string[]): CheckedBuiltin & { readonly count: number } {
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
