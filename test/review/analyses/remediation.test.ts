import { describe, expect, it } from 'vitest';
import { type FeedbackIssue, planRemediations, unclassifiedFindings } from '../../../src/review/index.js';
import { list, reviewMutated } from '../fixtures.js';

describe('remediation plan', () => {
  it('gives every CRITICAL and WARNING an owning stage, an effort and a maintenance category', () => {
    const report = reviewMutated((run) => {
      list(run.requirement_spec, 'requirements').push({ id: 'FR-003', type: 'functional', title: 'x' });
      run.plan.timestamp = 'never';
    });
    for (const issue of report.issues.filter((entry) => entry.severity !== 'INFO')) {
      expect(issue.remediation.agent_to_rerun).toMatch(/^\d\d-[a-z-]+$/);
      expect(issue.remediation.estimated_effort).not.toBe('');
      expect(['perfective', 'adaptive', 'corrective', 'preventive']).toContain(issue.remediation.maintenance_category);
    }
  });

  it('orders issues CRITICAL, WARNING, INFO and numbers them FBK-001…', () => {
    const issues = planRemediations([
      { rule: 'versions.metadata_missing', stage: '10-summary', title: 'i', description: '', artifacts: ['a'], ids: [], action: 'x' },
      { rule: 'contract.missing', stage: '07-code', title: 'w', description: '', artifacts: ['b'], ids: [], action: 'x' },
      { rule: 'traceability.story_without_test', stage: '08-testing', title: 'c', description: '', artifacts: ['c'], ids: [], action: 'x' },
    ]);
    expect(issues.map((issue) => [issue.id, issue.severity, issue.remediation.agent_to_rerun])).toEqual([
      ['FBK-001', 'CRITICAL', '08-testing'],
      ['FBK-002', 'WARNING', '07-code'],
      ['FBK-003', 'INFO', '10-summary'],
    ]);
  });

  it('an unclassified CRITICAL or WARNING is itself a finding', () => {
    const [issue] = planRemediations([{ rule: 'contract.missing', stage: '07-code', title: 'w', description: '', artifacts: ['b'], ids: [], action: 'x', owner: null }]);
    const incomplete = { ...issue, remediation: { ...issue?.remediation, estimated_effort: ' ' } } as FeedbackIssue;
    const findings = unclassifiedFindings([incomplete]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ rule: 'remediation.unclassified', ids: ['FBK-001'] });
    expect(findings[0]?.description).toContain('no an owning stage, no an effort estimate');
    expect(unclassifiedFindings([{ ...incomplete, severity: 'INFO' }])).toEqual([]);
  });
});
