import { describe, expect, it } from 'vitest';
import { escalationReasonSchema } from '../../../src/fix-loop/contracts/decision.js';
import { escalationReportSchema } from '../../../src/fix-loop/contracts/escalation.js';
import {
  buildEscalationReport,
  type EscalationSource,
  MAX_REPORTED_CANDIDATES,
  NEXT_STEPS,
} from '../../../src/fix-loop/core/escalation.js';
import { renderEscalationMarkdown } from '../../../src/fix-loop/core/escalation-markdown.js';
import { attempt, gapOf, stored } from './fixtures.js';

const session: EscalationSource = {
  session_id: 'fix-7',
  goal: 'npm test passes',
  goal_type: 'tests',
  gap: gapOf(0, 2),
  attempts: [
    attempt(0, 4, 3, { candidate_description: 'add the missing import', action: 'build_iteration' }),
    attempt(1, 3, 3, { candidate_description: 'widen | the type', outcome: 'not_applied' }),
    attempt(2, 3, null, { candidate_description: 'rename the export' }),
  ],
};

const manual = [stored('rotate the API key', 0.4, true), stored('ask the owner', 0.9, true)];

describe('buildEscalationReport', () => {
  const report = buildEscalationReport(session, 'max_attempts', manual, 'Three attempts made.');

  it('names the session, the goal and its type, and satisfies the contract', () => {
    expect(report).toMatchObject({ session_id: 'fix-7', goal: 'npm test passes', goal_type: 'tests' });
    expect(escalationReportSchema.parse(report)).toEqual(report);
  });

  it('counts the attempts and summarises each accurately', () => {
    expect(report.attempts_made).toBe(3);
    expect(report.attempts_summary).toEqual([
      {
        index: 0,
        action: 'build_iteration',
        candidate: 'add the missing import',
        outcome: 'applied',
        gap_before: 4,
        gap_after: 3,
      },
      {
        index: 1,
        action: 'test_iteration',
        candidate: 'widen | the type',
        outcome: 'not_applied',
        gap_before: 3,
        gap_after: 3,
      },
      {
        index: 2,
        action: 'test_iteration',
        candidate: 'rename the export',
        outcome: 'interrupted',
        gap_before: 3,
        gap_after: null,
      },
    ]);
  });

  it('carries the final gap as measured', () => {
    expect(report.final_gap).toEqual(gapOf(0, 2));
    expect(buildEscalationReport({ ...session, gap: null }, 'infra_gap', []).final_gap).toBeNull();
  });

  it('lists the best manual candidates not tried, best first, automatic ones left out', () => {
    const mixed = [...manual, stored('auto fix', 0.99)];
    expect(
      buildEscalationReport(session, 'manual_required', mixed).top_remaining_candidates.map((c) => c.description),
    ).toEqual(['ask the owner', 'rotate the API key']);
    const many = Array.from({ length: 9 }, (_, i) => stored(`manual ${i}`, i / 10, true));
    const listed = buildEscalationReport(session, 'manual_required', many).top_remaining_candidates;
    expect(listed.map((c) => c.description)).toEqual(['manual 8', 'manual 7', 'manual 6', 'manual 5', 'manual 4']);
    expect(listed).toHaveLength(MAX_REPORTED_CANDIDATES);
  });

  it('populates the reason and its detail', () => {
    expect(report.escalation_reason).toBe('max_attempts');
    expect(report.detail).toBe('Three attempts made.');
  });

  it('recommends one human-readable next step per reason', () => {
    for (const reason of escalationReasonSchema.options) {
      for (const candidates of [manual, []]) {
        const step = buildEscalationReport(session, reason, candidates).recommended_next_step;
        if (candidates.length > 0) expect(step).toBe(NEXT_STEPS[reason]);
        expect(step).toMatch(/^[A-Z][^.]*(\.[^.]+)*\.$/);
        expect(step.split(/\.\s/)).toHaveLength(1);
        // The report and its Markdown hold the step after the attempts and the candidates: nothing is "below".
        expect(step).not.toMatch(/\bbelow\b/);
      }
    }
    expect(new Set(Object.values(NEXT_STEPS)).size).toBe(escalationReasonSchema.options.length);
    expect(NEXT_STEPS.infra_gap).toContain('npm ci');
  });

  it.each(['all_auto_tried', 'manual_required'] as const)(
    '%s: sends the reader to the manual candidates only when the report lists some',
    (reason) => {
      const listing = buildEscalationReport(session, reason, manual);
      expect(listing.top_remaining_candidates).not.toEqual([]);
      expect(listing.recommended_next_step).toBe(NEXT_STEPS[reason]);
      expect(listing.recommended_next_step).toMatch(/manual candidates? this report lists/);
      // Automatic candidates only (or none): the report lists no manual one, and the step says what to do instead.
      const automatic = manual.map((candidate) => ({ ...candidate, mutation_type: 'auto' as const }));
      const none = buildEscalationReport(session, reason, automatic);
      expect(none.top_remaining_candidates).toEqual([]);
      expect(none.recommended_next_step).not.toMatch(/manual candidate/);
      expect(none.recommended_next_step).toMatch(/by hand/);
      const markdown = renderEscalationMarkdown(none);
      expect(markdown).toContain(`not tried\n\nNone.\n\n## Recommended next step\n\n${none.recommended_next_step}\n`);
    },
  );

  it('lists the attempts the workspace still holds, and which made the gap worse', () => {
    // Attempt 2 was interrupted: it may have been applied before it was cut off.
    expect(report.applied_attempts).toEqual([0, 2]);
    expect(report.worsening_attempts).toEqual([]);
    // A gap left as it was is no worse.
    const unchanged = buildEscalationReport({ ...session, attempts: [attempt(0, 2, 2)] }, 'no_progress', []);
    expect(unchanged).toMatchObject({ applied_attempts: [0], worsening_attempts: [] });
    expect(unchanged.recommended_next_step).toBe(NEXT_STEPS.no_progress);
    const worse = buildEscalationReport(
      { ...session, attempts: [attempt(0, 1, 2), attempt(1, 2, 2, { outcome: 'not_applied' }), attempt(2, 2, 1)] },
      'manual_required',
      manual,
    );
    expect(worse.applied_attempts).toEqual([0, 2]);
    expect(worse.worsening_attempts).toEqual([0]);
    const markdown = renderEscalationMarkdown(worse);
    expect(markdown).toContain(
      'The workspace holds the changes of attempts 1, 3, one on top of the other; none was reverted. **Attempt 1 made the gap worse.**',
    );
    expect(renderEscalationMarkdown(report)).toContain(
      'The workspace holds the changes of attempts 1, 3 (an interrupted one may have been applied before it was cut off), one on top',
    );
    expect(renderEscalationMarkdown(buildEscalationReport({ ...session, attempts: [] }, 'max_attempts', []))).toContain(
      'The workspace holds no change of this session: no attempt was applied.',
    );
  });

  it('leads the next step with reverting the changes that made the gap worse, still one sentence', () => {
    const worsened = { ...session, attempts: [attempt(0, 1, 2), attempt(1, 2, 3)] };
    for (const reason of escalationReasonSchema.options) {
      const step = buildEscalationReport(worsened, reason, manual).recommended_next_step;
      if (reason === 'worsening_trend') expect(step).toBe(NEXT_STEPS.worsening_trend);
      else {
        const rest = NEXT_STEPS[reason];
        expect(step).toBe(
          `Revert the changes of attempts 1, 2, which made the gap worse and are still in the workspace; then ${rest.charAt(0).toLowerCase()}${rest.slice(1)}`,
        );
      }
      expect(step.split(/\.\s/)).toHaveLength(1);
    }
    const one = buildEscalationReport({ ...session, attempts: [attempt(0, 1, 2)] }, 'manual_required', manual);
    expect(one.recommended_next_step).toMatch(/^Revert the change of attempt 1, which made the gap worse and is still/);
  });

  it('handles a session with no attempt', () => {
    const empty = buildEscalationReport({ ...session, attempts: [] }, 'manual_required', manual);
    expect(empty.attempts_made).toBe(0);
    expect(empty.attempts_summary).toEqual([]);
    expect(renderEscalationMarkdown(empty)).toContain('No attempt was made.');
  });

  it('is deterministic and survives a JSON round trip', () => {
    const again = buildEscalationReport(
      structuredClone(session),
      'max_attempts',
      [...manual].reverse(),
      'Three attempts made.',
    );
    expect(again).toEqual(report);
    expect(escalationReportSchema.parse(JSON.parse(JSON.stringify(report)))).toEqual(report);
  });
});

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
