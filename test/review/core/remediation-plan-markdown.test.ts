import { describe, expect, it } from 'vitest';
import { type ContractKey, REVIEW_CONTRACT_SLOTS } from '../../../src/review/core/contract-slots.js';
import { renderRemediationPlan } from '../../../src/review/core/remediation-plan-markdown.js';
import { reviewMutated } from '../fixtures.js';

// The plan's pipeline status line for the clean run without the contracts of `keys`.
function statusLine(keys: readonly ContractKey[], stages?: readonly string[]): string {
  const report = reviewMutated(
    (run) => {
      for (const key of keys) delete (run as Partial<typeof run>)[key];
    },
    stages === undefined ? {} : { stages },
  );
  return renderRemediationPlan(report)
    .split('\n')
    .find((line) => line.startsWith('- Pipeline status:')) as string;
}

describe('renderRemediationPlan: the pipeline status line', () => {
  it('claims completeness only when every expected core contract was analysed', () => {
    expect(statusLine([])).toBe(
      '- Pipeline status: REVIEWED_AND_COMPLETE — 10 of 10 expected core contracts analysed.',
    );
  });

  it('with contracts missing but not BLOCKED, says the review has gaps and counts them', () => {
    const line = statusLine(['transcript', 'documentation', 'plan', 'deployment_report', 'summary']);
    expect(line).toMatch(
      /^- Pipeline status: reviewed with gaps — 5 of 10 expected core contracts analysed \(5 missing\)/,
    );
    expect(line).not.toMatch(/^- Pipeline status: REVIEWED_AND_COMPLETE/);
  });

  it('counts a malformed contract as a gap', () => {
    const report = reviewMutated((run) => {
      (run as Record<string, unknown>).plan = ['not', 'an', 'object'];
    });
    expect(renderRemediationPlan(report)).toContain(
      '- Pipeline status: reviewed with gaps — 9 of 10 expected core contracts analysed (1 malformed)',
    );
  });

  it('a BLOCKED review says so, with the count', () => {
    const core = REVIEW_CONTRACT_SLOTS.filter((slot) => slot.kind === 'core').map((slot) => slot.key);
    expect(statusLine(core.slice(0, 6))).toBe(
      '- Pipeline status: BLOCKED — 4 of 10 expected core contracts analysed (6 missing): more than half are missing.',
    );
  });

  it('counts only the contracts of the stages the pipeline runs', () => {
    const stages = ['02-requirements', '05-jira', '06-architecture', '07-code', '08-testing', '11-feedback-loop'];
    const line = statusLine(['transcript', 'documentation', 'plan', 'deployment_report', 'summary'], stages);
    expect(line).toBe('- Pipeline status: REVIEWED_AND_COMPLETE — 5 of 5 expected core contracts analysed.');
  });
});

describe('renderRemediationPlan: quoted values', () => {
  it('keeps an id with a newline inside its own heading, and raw HTML inert', () => {
    const report = reviewMutated((run) => {
      delete (run as Partial<typeof run>).plan;
    });
    const [issue] = report.issues;
    if (issue === undefined) throw new Error('the fixture should have an issue');
    const hostile = {
      ...report,
      issues: [{ ...issue, id: 'ISSUE-1\n## Approved by security', description: '<script>alert(1)</script>' }],
    };
    const lines = renderRemediationPlan(hostile).split('\n');
    expect(lines).not.toContain('## Approved by security');
    expect(lines).toContain(`### ISSUE-1 ## Approved by security — ${issue.title}`);
    expect(lines).toContain('- &lt;script>alert(1)&lt;/script>');
    expect(lines.join('\n')).not.toContain('<script>');
  });
});
