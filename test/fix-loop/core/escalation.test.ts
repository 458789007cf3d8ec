import { describe, expect, it } from 'vitest';
import { escalationReportSchema } from '../../../src/fix-loop/contracts/escalation.js';
import { buildEscalationReport, MAX_REPORTED_CANDIDATES, NEXT_STEPS } from '../../../src/fix-loop/core/escalation.js';
import { renderEscalationMarkdown } from '../../../src/fix-loop/core/escalation-markdown.js';
import { attempt, gapOf, manual, session, stored } from './fixtures.js';

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
      'The workspace holds the changes of attempts 1, 3, one on top of the other. **Attempt 1 made the gap worse.**',
    );
    expect(renderEscalationMarkdown(report)).toContain(
      'The workspace holds the changes of attempts 1, 3 (an interrupted one may have been applied before it was cut off), one on top',
    );
    expect(renderEscalationMarkdown(buildEscalationReport({ ...session, attempts: [] }, 'max_attempts', []))).toContain(
      'The workspace holds no change of this session: no attempt was kept.',
    );
  });

  it('leaves reverted attempts out of what the workspace holds, and says they were reverted', () => {
    const attempts = [attempt(0, 2, 3, { outcome: 'reverted' }), attempt(1, 2, 3, { outcome: 'reverted' })];
    const reverted = buildEscalationReport({ ...session, attempts }, 'worsening_trend', []);
    expect(reverted).toMatchObject({ applied_attempts: [], worsening_attempts: [] });
    expect(reverted.recommended_next_step).toMatch(/^The attempts that made the gap worse were reverted/);
    expect(renderEscalationMarkdown(reverted)).toContain(
      'The workspace holds no change of this session: no attempt was kept. Attempts 1, 2 did not lower the gap and were reverted.',
    );
    const kept = buildEscalationReport(
      { ...session, attempts: [attempt(0, 3, 2), attempt(1, 2, 3, { outcome: 'reverted' })] },
      'no_progress',
      [],
    );
    expect(kept.applied_attempts).toEqual([0]);
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
