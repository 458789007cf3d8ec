import { markdownCell as cell, markdownCode as code, markdownText as text } from '../../kit/markdown.js';
import type { FeedbackIssue } from '../contracts/feedback-issues.js';
import type { FeedbackReport } from '../contracts/feedback-report.js';
import { REVIEW_CONTRACT_SLOTS } from './contract-slots.js';

/** Traceability rows the plan renders before pointing at feedback.json for the rest. @public */
export const MAX_PLAN_MATRIX_ROWS = 200;

// A list of quoted values as prose, `none` when empty.
const list = (values: readonly string[]): string => (values.length === 0 ? 'none' : text(values.join(', ')));

// A list of ids for a table cell, `—` when empty.
function ids(values: readonly string[]): string {
  return values.length === 0 ? '—' : cell(values.join(', '));
}

const CORE_KEYS: ReadonlySet<string> = new Set(
  REVIEW_CONTRACT_SLOTS.filter((slot) => slot.kind === 'core').map((slot) => slot.key),
);

// The pipeline status with how many expected core contracts were analysed.
function statusLine(report: FeedbackReport): string {
  const expected = report.analysis_scope.contracts.filter(
    (entry) => CORE_KEYS.has(entry.contract) && entry.state !== 'skipped',
  );
  const count = (state: string): number => expected.filter((entry) => entry.state === state).length;
  const [analysed, missing, malformed] = [count('analysed'), count('missing'), count('malformed')];
  const of = `${analysed} of ${expected.length} expected core contracts analysed`;
  const gaps = [
    ...(missing > 0 ? [`${missing} missing`] : []),
    ...(malformed > 0 ? [`${malformed} malformed`] : []),
  ].join(', ');
  if (report.pipeline_status === 'BLOCKED')
    return `- Pipeline status: BLOCKED — ${of} (${gaps}): more than half are missing.`;
  if (gaps === '') return `- Pipeline status: ${report.pipeline_status} — ${of}.`;
  return `- Pipeline status: reviewed with gaps — ${of} (${gaps}), so the findings cover only what was read (feedback.json says ${report.pipeline_status}: BLOCKED is for more than half missing).`;
}

// The executive summary: score, health, status, counts, coverage and scope.
function summarySection(report: FeedbackReport): string[] {
  const { summary, traceability_matrix: matrix, analysis_scope: scope } = report;
  const lines = [
    '## Executive summary',
    '',
    `- Consistency score: **${summary.overall_consistency_score}/100** (${summary.pipeline_health}).`,
    statusLine(report),
    `- Issues: ${summary.critical_count} CRITICAL, ${summary.warning_count} WARNING, ${summary.info_count} INFO${omittedNote(report)}.`,
    `- Traceability: ${matrix.requirements_fully_traced} of ${matrix.total_requirements} functional requirements fully traced (${matrix.coverage_percentage}%).`,
  ];
  if (matrix.baseline !== undefined)
    lines.push(
      `- Adopted baseline: ${matrix.baseline.requirements_fully_traced} of ${matrix.baseline.total_requirements} traced (${matrix.baseline.coverage_percentage}%), scored apart.`,
    );
  lines.push(
    `- Contracts analysed: ${scope.contracts_analyzed.length}; missing: ${list(scope.contracts_missing)}; malformed: ${list(scope.contracts_malformed)}.`,
  );
  if (scope.contracts_skipped.length > 0) {
    const why = scope.mode === 'adopt' ? 'a stage adoption skips, or one outside the pipeline' : 'outside the pipeline';
    lines.push(`- Not expected (${why}), so not findings: ${list(scope.contracts_skipped)}.`);
  }
  return [...lines, ''];
}

// The note on issues past the per-rule cap, for the summary's issue line.
function omittedNote(report: FeedbackReport): string {
  const omitted = report.omitted_issues ?? [];
  if (omitted.length === 0) return '';
  const count = omitted.reduce((sum, entry) => sum + entry.omitted, 0);
  return ` (${report.issues.length} listed below; ${count} more of the same rules counted under "Findings not listed")`;
}

// The rules whose findings went past the per-rule cap: how many more, which ids first, and where.
function omittedSection(report: FeedbackReport): string[] {
  const omitted = report.omitted_issues ?? [];
  if (omitted.length === 0) return [];
  const lines = [
    '## Findings not listed',
    '',
    'Each rule lists at most its first findings; the rest are counted here (and in `omitted_issues` of feedback.json), scored like the listed ones, and fixed the same way as the listed issues of their rule.',
    '',
  ];
  for (const entry of omitted)
    lines.push(
      `- ${code(entry.rule)} (${entry.severity}${entry.baseline === true ? ', baseline' : ''}): ${entry.omitted} more beyond the ${entry.listed} listed, in ${text(entry.source_agent)} (${list(entry.affected_artifacts)}); first: ${list(entry.example_ids)}${entry.omitted > entry.example_ids.length ? ', …' : ''}`,
    );
  return [...lines, ''];
}

// The FR → story → code → test → deployment table.
function matrixSection(report: FeedbackReport): string[] {
  const rows = report.traceability_matrix.requirements;
  const lines = [
    '## Traceability matrix',
    '',
    '| Requirement | Title | Stories | Code | Tests | Deployment | Fully traced |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const row of rows.slice(0, MAX_PLAN_MATRIX_ROWS)) {
    lines.push(
      `| ${cell(row.requirement_id)}${row.baseline ? ' (baseline)' : ''} | ${cell(row.title)} | ${ids(row.stories)} | ${ids(row.code)} | ${ids(row.tests)} | ${ids(row.deployment)} | ${row.fully_traced ? 'yes' : '**no**'} |`,
    );
  }
  if (rows.length === 0) lines.push('| — | no functional requirements were read | | | | | |');
  if (rows.length > MAX_PLAN_MATRIX_ROWS)
    lines.push('', `_${rows.length - MAX_PLAN_MATRIX_ROWS} more rows in feedback.json._`);
  return [...lines, ''];
}

// One issue with its remediation.
function issueBlock(issue: FeedbackIssue): string[] {
  const remediation = issue.remediation;
  return [
    `### ${text(issue.id)} — ${text(issue.title)}`,
    '',
    `- Category: ${text(issue.category)}${issue.rule === undefined ? '' : ` (${code(issue.rule)})`}; found in ${text(issue.source_agent)}: ${list(issue.affected_artifacts)}`,
    `- ${text(issue.description)}`,
    `- **Remediation** (${text(remediation.maintenance_category)}, ${text(remediation.estimated_effort)}, rerun ${text(remediation.agent_to_rerun ?? 'none')}${remediation.can_auto_remediate ? '' : ', manual'}): ${text(remediation.action)}`,
    '',
  ];
}

// The issues of one severity, or a line saying there are none.
function severitySection(title: string, issues: readonly FeedbackIssue[]): string[] {
  return [`## ${title}`, '', ...(issues.length === 0 ? ['None.', ''] : issues.flatMap(issueBlock))];
}

// Bug swarms, rerun order, goal evaluation and the sign-off checklist.
function closingSections(report: FeedbackReport): string[] {
  const lines = ['## Bug swarms', ''];
  if (report.bug_swarms.length === 0) lines.push('None.');
  for (const swarm of report.bug_swarms)
    lines.push(
      `- **${text(swarm.id)}** on ${code(swarm.module)} (${list(swarm.issue_ids)}): ${text(swarm.remediation.action)}`,
    );
  const evaluation = report.goal_evaluation;
  lines.push(
    '',
    '## Re-run recommendations',
    '',
    evaluation.recommended_rerun_stages.length === 0
      ? 'No stage needs to rerun.'
      : evaluation.recommended_rerun_stages.map((stage, index) => `${index + 1}. ${text(stage)}`).join('\n'),
  );
  lines.push(
    '',
    '## Goal evaluation',
    '',
    `- Goal ${code(evaluation.goal_id)}${evaluation.iteration === undefined ? '' : ` at iteration ${evaluation.iteration}`}: **${evaluation.status}** — ${text(evaluation.reason)}`,
  );
  for (const entry of evaluation.criteria)
    lines.push(
      `- ${code(entry.criterion_id)}: ${text(entry.result)}${entry.evidence.length === 0 ? '' : ` (evidence: ${list(entry.evidence)})`}${entry.reasoning === undefined ? '' : ` — ${text(entry.reasoning)}`}`,
    );
  const check = (done: boolean, text: string): string => `- [${done ? 'x' : ' '}] ${text}`;
  lines.push(
    '',
    '## Sign-off checklist',
    '',
    check(report.summary.critical_count === 0, 'No CRITICAL issue'),
    check(
      report.analysis_scope.contracts_missing.length === 0 && report.analysis_scope.contracts_malformed.length === 0,
      'Every expected core contract read and well-formed',
    ),
    check(report.traceability_matrix.coverage_percentage === 100, 'Every functional requirement fully traced'),
    check(report.summary.pipeline_health === 'HEALTHY', 'Consistency score 90 or above'),
    check(evaluation.status === 'PASS', 'Goal evaluation PASS'),
    '',
  );
  return lines;
}

/**
 * Renders REMEDIATION_PLAN.md from a feedback report: an executive summary, the traceability table, the findings by
 * severity with their remediations, bug swarms, the rerun order, the goal evaluation and a sign-off checklist. @public
 */
export function renderRemediationPlan(report: FeedbackReport): string {
  const bySeverity = (severity: FeedbackIssue['severity']) =>
    report.issues.filter((issue) => issue.severity === severity);
  return [
    '# Remediation plan',
    '',
    `Consistency review of ${text(report.timestamp)} (feedback.json contract ${text(report.contract_version)}, produced by ${text(report.produced_by)}).`,
    '',
    ...summarySection(report),
    ...matrixSection(report),
    ...severitySection('Critical issues', bySeverity('CRITICAL')),
    ...severitySection('Warning issues', bySeverity('WARNING')),
    ...severitySection('Informational items', bySeverity('INFO')),
    ...omittedSection(report),
    ...closingSections(report),
  ].join('\n');
}
