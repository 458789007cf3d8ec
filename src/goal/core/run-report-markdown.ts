// Every value quoted from the run's files goes through the shared Markdown escaping.
import { markdownCell as cell, markdownCode as code, markdownText as text } from '../../kit/markdown.js';
import { pushAll } from '../../kit/record.js';
import { formatDuration, formatUsd } from './line-text.js';
import { runReportFlow } from './run-report-flow.js';
import type { ReportIteration, ReportStop, RunReport } from './run-report-model.js';

// Text ending as a sentence (one full stop, whether or not it brought its own).
const sentence = (line: string): string => (/[.!?]$/.test(line) ? line : `${line}.`);
const stopLine = (stop: ReportStop): string =>
  `**${text(stop.stoppedOn)}** at iteration ${stop.iteration}${stop.reason === '' ? '' : `: ${text(stop.reason)}`}`;

// The heading line under the title: goal, iterations, sessions, stop, spend.
function summary(report: RunReport): string {
  const parts = [
    `Goal ${report.goalId === null ? 'unknown' : code(report.goalId)}`,
    `${report.iterations.length} iteration(s) in ${report.sessions} session(s)`,
    report.spent === null ? 'spend unknown' : `spent ${formatUsd(report.spent.usd)} (${report.spent.source})`,
  ];
  return `${parts.join(' · ')}.`;
}

// The stop section's sentence.
function stopSection(report: RunReport): string {
  if (report.stop !== null) return sentence(`Stopped on ${stopLine(report.stop)}`);
  if (report.open !== null) {
    return report.open.pausedBy === null
      ? `No stop recorded: a session is open (phase ${report.open.phase}): a loop is running, or one crashed and the next \`run()\` resumes it.`
      : `Paused: ${sentence(stopLine(report.open.pausedBy))} The session is open (phase ${report.open.phase}); the next \`run()\` resumes it.`;
  }
  return 'No stop recorded (loop-state.json could not be read, and no event records one).';
}

// One iteration: its stages, its evaluation and failing criteria, its retry and stops.
function iterationSection(row: ReportIteration): string[] {
  const session =
    row.session === null
      ? ''
      : ` (session ${row.session}${row.sessionIteration === null ? '' : `, ${row.sessionIteration} of at most ${row.maxIterations ?? '?'}`})`;
  const lines = [`### Iteration ${row.iteration}${session}`, ''];
  if (row.resumed) lines.push('Resumed an unfinished session.', '');
  if (row.stages.length === 0) lines.push('No stage run recorded.', '');
  else
    lines.push(
      '| stage | status | duration | cost | detail |',
      '|---|---|---|---|---|',
      ...row.stages.map(
        (stage) =>
          `| ${cell(stage.stage)} | ${cell(stage.status)} | ${formatDuration(stage.durationMs)} | ${formatUsd(stage.costUsd)} | ${cell(stage.detail ?? '')} |`,
      ),
      '',
      `Stage spend: ${formatUsd(row.spentUsd)}${row.lateCostUsd > 0 ? ` (${formatUsd(row.lateCostUsd)} of it reported after the loop stopped waiting)` : ''}.`,
      '',
    );
  const evaluation = row.evaluation;
  if (evaluation === null) {
    const said =
      row.evaluated === null ? '' : ` Its event says ${text(row.evaluated.status)}, score ${row.evaluated.score}.`;
    lines.push(`Evaluation: none readable at ${code(row.evaluationPath)}.${said}`, '');
  } else {
    const min = evaluation.minScore === null ? '' : ` (min ${evaluation.minScore})`;
    lines.push(
      `Evaluation: **${text(evaluation.status)}**, score ${evaluation.score}${min}: ${text(evaluation.reason)}`,
      '',
    );
    if (evaluation.failing.length > 0)
      lines.push(
        ...evaluation.failing.map(
          (item) =>
            `- ${code(item.id)} (${text(item.kind)}) ${text(item.status)}${item.detail === '' ? '' : `: ${text(item.detail)}`}`,
        ),
        '',
      );
  }
  if (row.retry !== null)
    lines.push(sentence(`Retrying ${row.retry.stages.map(code).join(', ')}: ${text(row.retry.reason)}`), '');
  for (const stop of row.stops) lines.push(sentence(`Stopped on ${stopLine(stop)}`), '');
  return lines;
}

/** Renders a run's report as Markdown. @internal */
export function renderRunReportMarkdown(report: RunReport): string {
  const lines = [`# Run report: ${code(report.runDir)}`, '', summary(report), '', '## Iterations', ''];
  if (report.iterations.length === 0) lines.push('No iteration recorded.', '');
  for (const row of report.iterations) pushAll(lines, iterationSection(row));
  lines.push('## Stop', '', stopSection(report), '', '## Path', '', '```mermaid', ...runReportFlow(report), '```', '');
  if (report.problems.length > 0)
    lines.push(
      '## Unreadable files',
      '',
      ...report.problems.map((problem) => `- ${code(problem.path)}: ${text(problem.message)}`),
      '',
    );
  return lines.join('\n');
}
