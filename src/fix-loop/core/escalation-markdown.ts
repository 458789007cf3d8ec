import { markdownCell as cell, markdownText as line } from '../../kit/markdown.js';
import type { EscalationReport } from '../contracts/escalation.js';
import type { GapModel } from '../contracts/gap.js';

// The gap in words: its total and each part.
function describeGap(gap: GapModel | null): string {
  if (gap === null) return 'not measured';
  const build = gap.build.failing ? `failing, ${gap.build.error_count} error(s)` : 'passing';
  const tests = `${gap.tests.failed} failed, ${gap.tests.passed} passed of ${gap.tests.total}`;
  const missing = gap.requirements.missing.length === 0 ? 'none' : gap.requirements.missing.join(', ');
  return `${gap.gap} (build ${build}; tests ${tests}; missing requirements: ${line(missing)})`;
}

const gapCell = (value: number | null): string => (value === null ? '—' : String(value));

// What the workspace still holds of the attempts: those applied and kept, one on top of the other.
function workspaceChanges(report: EscalationReport): string {
  const numbers = (indexes: readonly number[]) => indexes.map((index) => String(index + 1)).join(', ');
  const reverted = report.attempts_summary.filter((attempt) => attempt.outcome === 'reverted').map((a) => a.index);
  const undone =
    reverted.length === 0
      ? ''
      : ` Attempt${reverted.length > 1 ? 's' : ''} ${numbers(reverted)} did not lower the gap and ${reverted.length > 1 ? 'were' : 'was'} reverted.`;
  if (report.applied_attempts.length === 0)
    return `The workspace holds no change of this session: no attempt was kept.${undone}`;
  const worse =
    report.worsening_attempts.length === 0
      ? ''
      : ` **Attempt${report.worsening_attempts.length > 1 ? 's' : ''} ${numbers(report.worsening_attempts)} made the gap worse.**`;
  const interrupted = report.attempts_summary.some(
    (attempt) => attempt.outcome === 'interrupted' && report.applied_attempts.includes(attempt.index),
  )
    ? ' (an interrupted one may have been applied before it was cut off)'
    : '';
  return `The workspace holds the changes of attempt${report.applied_attempts.length > 1 ? 's' : ''} ${numbers(report.applied_attempts)}${interrupted}, one on top of the other.${undone}${worse}`;
}

/**
 * Renders an escalation report as readable Markdown: a header naming the
 * session, the goal, the reason and its detail, the attempts made and the
 * final gap, a table of the attempts (number, action, candidate, outcome, gap
 * before and after), what the workspace still holds of them, the manual
 * candidates not tried, and the recommended
 * next step. Pure.
 *
 * @public
 */
export function renderEscalationMarkdown(report: EscalationReport): string {
  const out: string[] = [
    `# Fix session escalated: ${line(report.session_id)}`,
    '',
    `- **Goal** (${line(report.goal_type)}): ${line(report.goal)}`,
    `- **Reason:** \`${report.escalation_reason}\`${report.detail === '' ? '' : ` — ${line(report.detail)}`}`,
    `- **Attempts made:** ${report.attempts_made}`,
    `- **Final gap:** ${describeGap(report.final_gap)}`,
    '',
    '## Attempts',
    '',
  ];
  if (report.attempts_summary.length === 0) out.push('No attempt was made.');
  else {
    out.push('| # | Action | Candidate | Outcome | Gap before | Gap after |', '|---|---|---|---|---|---|');
    for (const attempt of report.attempts_summary) {
      const row = [
        String(attempt.index + 1),
        attempt.action,
        cell(attempt.candidate),
        attempt.outcome,
        gapCell(attempt.gap_before),
        gapCell(attempt.gap_after),
      ];
      out.push(`| ${row.join(' | ')} |`);
    }
  }
  out.push('', workspaceChanges(report));
  out.push('', '## Manual candidates not tried', '');
  if (report.top_remaining_candidates.length === 0) out.push('None.');
  for (const candidate of report.top_remaining_candidates) {
    out.push(`- ${line(candidate.description)} (confidence ${candidate.confidence})`);
  }
  out.push('', '## Recommended next step', '', line(report.recommended_next_step), '');
  return out.join('\n');
}
