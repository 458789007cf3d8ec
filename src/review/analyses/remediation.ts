import type { FeedbackIssue } from '../contracts/feedback-issues.js';
import type { NamedFields } from '../contracts/feedback-report.js';
import type { Finding } from '../core/finding.js';
import { reviewRule, ruleOrder, type Severity } from '../core/rules.js';

const SEVERITY_RANK: Readonly<Record<Severity, number>> = { CRITICAL: 0, WARNING: 1, INFO: 2 };

/** The id of the n-th issue (1-based): `FBK-001`. @public */
export function issueId(index: number): string {
  return `FBK-${String(index).padStart(3, '0')}`;
}

// Turns one finding into an issue without id: severity (baseline capped to INFO), owner, effort, category.
function toIssue(finding: Finding, baselineSources: readonly string[]): Omit<NamedFields<FeedbackIssue>, 'id'> {
  const rule = reviewRule(finding.rule);
  const baseline = finding.baseline === true;
  const owner = finding.owner !== undefined ? finding.owner : rule.owner === 'self' ? finding.stage : rule.owner;
  const readFirst = baseline
    ? [...new Set([...(finding.readFirst ?? finding.artifacts), ...baselineSources])]
    : (finding.readFirst ?? []);
  const action =
    readFirst.length > 0
      ? `Read ${readFirst.join(', ')} first (baseline: study before modifying). Then: ${finding.action}`
      : finding.action;
  return {
    severity: baseline ? 'INFO' : rule.severity,
    category: rule.category,
    rule: rule.id,
    title: finding.title,
    description: finding.description,
    source_agent: finding.stage,
    affected_artifacts: [...finding.artifacts],
    related_ids: [...finding.ids],
    module: finding.module ?? finding.artifacts[0] ?? finding.stage,
    ...(baseline ? { baseline: true } : {}),
    remediation: {
      action,
      agent_to_rerun: owner,
      estimated_effort: rule.effort,
      can_auto_remediate: owner !== null && !baseline,
      maintenance_category: rule.maintenance,
      ...(readFirst.length > 0 ? { read_first: [...readFirst] } : {}),
    },
  };
}

/** Analysis 7, the remediation plan. @public */
export function planRemediations(
  findings: readonly Finding[],
  baselineSources: readonly string[] = [],
): FeedbackIssue[] {
  const issues = findings.map((finding, index) => ({ index, issue: toIssue(finding, baselineSources) }));
  issues.sort(
    (a, b) =>
      SEVERITY_RANK[a.issue.severity] - SEVERITY_RANK[b.issue.severity] ||
      ruleOrder(a.issue.rule ?? '') - ruleOrder(b.issue.rule ?? '') ||
      a.index - b.index,
  );
  return issues.map(({ issue }, index) => ({ id: issueId(index + 1), ...issue }));
}
