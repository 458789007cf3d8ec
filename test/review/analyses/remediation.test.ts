import { describe, expect, it } from 'vitest';
import { SDLC_STAGES } from '../../../src/pipeline/stage-presets.js';
import { planRemediations } from '../../../src/review/analyses/remediation.js';
import { REVIEW_RULES } from '../../../src/review/core/rules.js';
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
      {
        rule: 'versions.metadata_missing',
        stage: '10-summary',
        title: 'i',
        description: '',
        artifacts: ['a'],
        ids: [],
        action: 'x',
      },
      {
        rule: 'contract.missing',
        stage: '07-code',
        title: 'w',
        description: '',
        artifacts: ['b'],
        ids: [],
        action: 'x',
      },
      {
        rule: 'traceability.story_without_test',
        stage: '08-testing',
        title: 'c',
        description: '',
        artifacts: ['c'],
        ids: [],
        action: 'x',
      },
    ]);
    expect(issues.map((issue) => [issue.id, issue.severity, issue.remediation.agent_to_rerun])).toEqual([
      ['FBK-001', 'CRITICAL', '08-testing'],
      ['FBK-002', 'WARNING', '07-code'],
      ['FBK-003', 'INFO', '10-summary'],
    ]);
  });

  it('every rule has an owning stage, an effort and a maintenance category, so every planned issue is classified', () => {
    for (const rule of REVIEW_RULES) {
      expect([rule.id, rule.owner === 'self' || (SDLC_STAGES as readonly string[]).includes(rule.owner)]).toEqual([
        rule.id,
        true,
      ]);
      expect([rule.id, rule.effort]).toEqual([rule.id, expect.stringMatching(/^\d+ (minutes|hours?)$/)]);
      expect(['perfective', 'adaptive', 'corrective', 'preventive']).toContain(rule.maintenance);
    }
    const issues = planRemediations(
      REVIEW_RULES.map((rule) => ({
        rule: rule.id,
        stage: '07-code',
        title: 't',
        description: '',
        artifacts: ['a'],
        ids: [],
        action: 'x',
      })),
    );
    for (const issue of issues)
      expect(issue.remediation).toMatchObject({
        agent_to_rerun: expect.stringMatching(/^\d\d-[a-z-]+$/),
        estimated_effort: expect.stringMatching(/\S/),
        maintenance_category: expect.any(String),
      });
  });

  it("the remediation rule names no stage itself: a finding of it is owned by the stage it is on (the review's feedback stage)", () => {
    const [issue] = planRemediations([
      {
        rule: 'remediation.unclassified',
        stage: '20-review',
        title: 'r',
        description: '',
        artifacts: ['r'],
        ids: [],
        action: 'x',
      },
    ]);
    expect(issue?.remediation.agent_to_rerun).toBe('20-review');
  });
});
