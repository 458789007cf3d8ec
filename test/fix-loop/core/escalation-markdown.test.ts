import { describe, expect, it } from 'vitest';
import { buildEscalationReport, NEXT_STEPS } from '../../../src/fix-loop/core/escalation.js';
import { renderEscalationMarkdown } from '../../../src/fix-loop/core/escalation-markdown.js';
import { attempt, manual, session } from './fixtures.js';

describe('renderEscalationMarkdown', () => {
  const report = buildEscalationReport(session, 'worsening_trend', manual, 'The last 2 attempts made it worse.');
  const markdown = renderEscalationMarkdown(report);

  it('has a header, the reason with its detail, the attempts made and the final gap', () => {
    expect(markdown.startsWith('# Fix session escalated: fix-7\n')).toBe(true);
    expect(markdown).toContain('**Reason:** `worsening_trend` — The last 2 attempts made it worse.');
    expect(markdown).toContain('**Attempts made:** 3');
    expect(markdown).toContain(
      '**Final gap:** 2 (build passing; tests 2 failed, 10 passed of 12; missing requirements: none)',
    );
  });

  it('tabulates the attempts with the gap before and after, escaping pipes', () => {
    expect(markdown).toContain('| # | Action | Candidate | Outcome | Gap before | Gap after |');
    expect(markdown).toContain('| 1 | build_iteration | add the missing import | applied | 4 | 3 |');
    expect(markdown).toContain('| 2 | test_iteration | widen \\| the type | not_applied | 3 | 3 |');
    expect(markdown).toContain('| 3 | test_iteration | rename the export | interrupted | 3 | — |');
  });

  it('lists the manual candidates and the next step', () => {
    expect(markdown).toContain(
      '## Manual candidates not tried\n\n- ask the owner (confidence 0.9)\n- rotate the API key (confidence 0.4)',
    );
    expect(markdown).toContain(`## Recommended next step\n\n${NEXT_STEPS.worsening_trend}\n`);
    expect(renderEscalationMarkdown({ ...report, top_remaining_candidates: [] })).toContain('not tried\n\nNone.');
  });

  it('keeps a multi-line candidate on its table row', () => {
    const tricky = buildEscalationReport(
      { ...session, attempts: [attempt(0, 1, 1, { candidate_description: 'line one\nline two' })] },
      'no_progress',
      [],
    );
    expect(renderEscalationMarkdown(tricky)).toContain('| 1 | test_iteration | line one line two | applied | 1 | 1 |');
  });
});

describe('renderEscalationMarkdown: quoted values', () => {
  it('keeps a session id with a newline in its heading, and raw HTML inert', () => {
    const report = buildEscalationReport(session, 'worsening_trend', manual, 'worse');
    const markdown = renderEscalationMarkdown({
      ...report,
      session_id: 'fix-7\n# Fixed',
      top_remaining_candidates: [{ description: '<img src=x onerror=alert(1)>', confidence: 0.5 }],
    } as typeof report);
    expect(markdown.split('\n')).not.toContain('# Fixed');
    expect(markdown.startsWith('# Fix session escalated: fix-7 # Fixed\n')).toBe(true);
    expect(markdown).toContain('- &lt;img src=x onerror=alert(1)> (confidence 0.5)');
    expect(markdown).not.toContain('<img');
  });
});
