import { describe, expect, it } from 'vitest';
import { readFeedbackView } from '../../../src/goal/contracts/feedback-view.js';

describe('readFeedbackView', () => {
  it('reads can_auto_remediate inside remediation (where rstack-agents writes it) and on the issue', () => {
    const read = readFeedbackView({
      issues: [
        { severity: 'CRITICAL', remediation: { can_auto_remediate: true } },
        { severity: 'CRITICAL', can_auto_remediate: true },
      ],
    });
    expect(read.state).toBe('present');
    if (read.state === 'present') {
      expect(read.report.issues[0]?.remediation?.can_auto_remediate).toBe(true);
      expect(read.report.issues[1]?.can_auto_remediate).toBe(true);
    }
  });

  it('is malformed, with issue paths, for a non-object', () => {
    const read = readFeedbackView([]);
    expect(read.state).toBe('malformed');
    if (read.state === 'malformed') expect(read.issues[0]?.path).toEqual([]);
  });
});
