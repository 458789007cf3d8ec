import { describe, expect, it } from 'vitest';
import { escalationReasonSchema } from '../../../src/fix-loop/contracts/decision.js';
import { buildEscalationReport, NEXT_STEPS } from '../../../src/fix-loop/core/escalation.js';
import { renderEscalationMarkdown } from '../../../src/fix-loop/core/escalation-markdown.js';
import { attempt, manual, session } from './fixtures.js';

// The escalation report's recommended next step: one sentence per reason, the manual candidates named only when the
// report lists some, reverting the changes that made the gap worse first.

describe('buildEscalationReport', () => {
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
});
