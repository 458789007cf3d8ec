import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderRunReportMarkdown } from '../../../src/goal/core/run-report-markdown.js';
import type { ReportIteration, RunReport } from '../../../src/goal/core/run-report-model.js';

// A report of one iteration whose every text field read from the run's files holds `text`.
function reportWith(text: string): RunReport {
  const stop = { stoppedOn: 'blocked' as const, reason: text, iteration: 1 };
  const row: ReportIteration = {
    iteration: 1,
    session: 1,
    sessionIteration: 1,
    maxIterations: 3,
    planned: [text],
    stages: [{ stage: text, status: text, costUsd: 0, durationMs: 5, detail: text }],
    resumed: false,
    evaluated: null,
    evaluationPath: 'runs/r/iterations/1/evaluation.json',
    evaluation: {
      status: text,
      score: 50,
      minScore: 100,
      reason: text,
      failing: [{ id: 'c', kind: text, status: text, detail: text }],
      recommendedRerunStages: [],
    },
    retry: { stages: ['s'], reason: text },
    stops: [stop],
    spentUsd: 0,
    lateCostUsd: 0,
  };
  return {
    runDir: 'runs/r',
    goalId: 'g',
    sessions: 1,
    iterations: [row],
    path: [],
    stop,
    open: null,
    spent: null,
    problems: [{ path: 'runs/r/events.jsonl', message: text }],
  };
}

// The Markdown outside the Mermaid block (whose labels the flow renders and escapes on its own).
const prose = (markdown: string): string => markdown.replace(/```mermaid\n[\s\S]*?```/, '');
// The rows of the stage table under its header.
const tableRows = (markdown: string): string[] =>
  markdown.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| stage |'));
// The pipes that delimit cells, as GFM tables scan a row: a backslash escapes the character after it.
function delimiters(row: string): number {
  let count = 0;
  for (let index = 0; index < row.length; index += 1) {
    if (row[index] === '\\') index += 1;
    else if (row[index] === '|') count += 1;
  }
  return count;
}

describe('renderRunReportMarkdown', () => {
  it('escapes HTML in every text field, so a stage detail never becomes markup', () => {
    const markdown = prose(renderRunReportMarkdown(reportWith('<img src=x onerror=alert(1)> & <script>')));
    expect(markdown).not.toMatch(/<img|<script/);
    expect(markdown).toContain('&lt;img src=x onerror=alert(1)> &amp; &lt;script>');
  });

  it('keeps a table row one row of five cells, whatever the cells hold', () => {
    const text = fc.string({ unit: fc.constantFrom('a', '|', '\\', '<', '&', '\n', '\r', '\u2028', '`', ' ') });
    fc.assert(
      fc.property(text, (value) => {
        const rows = tableRows(renderRunReportMarkdown(reportWith(value)));
        expect(rows).toHaveLength(1);
        expect(delimiters(rows[0] ?? '')).toBe(6);
        expect(rows[0]).not.toMatch(/[<>]/);
      }),
    );
  });
});
