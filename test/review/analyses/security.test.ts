import { describe, expect, it } from 'vitest';
import { issuesOf, list, reviewMutated, rulesOf } from '../fixtures.js';

describe('security and compliance', () => {
  it('a security NFR without an architecture control is CRITICAL for 06-architecture', () => {
    const report = reviewMutated((run) => {
      list(run.system_design, 'security_controls').splice(0, 1);
      (list(run.test_report, 'test_cases')[2] as Record<string, unknown>).controls = [];
    });
    expect(rulesOf(report)).toEqual(['security.nfr_without_control']);
    expect(report.issues[0]).toMatchObject({
      severity: 'CRITICAL',
      related_ids: ['NFR-001'],
      remediation: { agent_to_rerun: '06-architecture' },
    });
  });

  it('a compliance NFR without a test case is CRITICAL for 08-testing', () => {
    const report = reviewMutated((run) => {
      list(run.requirement_spec, 'requirements').push({
        id: 'NFR-002',
        type: 'non_functional',
        category: 'Compliance',
        title: 'GDPR erasure',
      });
      list(run.system_design, 'security_controls').push({ id: 'SC-002', nfr_ids: ['NFR-002'] });
    });
    expect(rulesOf(report)).toEqual(['security.nfr_without_test', 'security.control_untested']);
    expect(report.issues[0]).toMatchObject({ severity: 'CRITICAL', remediation: { agent_to_rerun: '08-testing' } });
    expect(report.issues[1]).toMatchObject({ severity: 'WARNING', related_ids: ['SC-002', 'NFR-002'] });
  });

  it('a test through the control covers the NFR', () => {
    const report = reviewMutated((run) => {
      (list(run.test_report, 'test_cases')[2] as Record<string, unknown>).requirement_ids = [];
    });
    expect(report.issues).toEqual([]);
  });

  it('a control counts as tested only through a test naming it in controls[], never through a test of its NFR', () => {
    const report = reviewMutated((run) => {
      list(run.system_design, 'security_controls').push({ id: 'SC-002', description: 'lockout', nfr_ids: ['NFR-001'] });
    });
    expect(rulesOf(report)).toEqual(['security.control_untested']);
    expect(report.issues[0]).toMatchObject({
      severity: 'WARNING',
      related_ids: ['SC-002', 'NFR-001'],
      remediation: { agent_to_rerun: '08-testing' },
    });
  });

  it('non-security NFRs are not followed end to end', () => {
    const report = reviewMutated((run) => {
      list(run.requirement_spec, 'requirements').push({
        id: 'NFR-009',
        type: 'non_functional',
        category: 'performance',
        title: 'p95 < 200ms',
      });
    });
    expect(report.issues).toEqual([]);
  });

  it('a CRITICAL threat without mitigation in code is CRITICAL, a HIGH one a WARNING, MEDIUM nothing', () => {
    const report = reviewMutated((run) => {
      run.threat_model.threats = [
        { id: 'THR-001', risk_level: 'HIGH', affected_component: 'auth', mitigation: 'rate limit' },
        {
          id: 'THR-002',
          risk_level: 'CRITICAL',
          affected_component: 'auth',
          mitigation: { description: 'parameterize queries' },
        },
        { id: 'THR-003', risk_level: 'HIGH', affected_component: 'gateway' },
        { id: 'THR-004', risk_level: 'MEDIUM' },
      ];
    });
    expect(issuesOf(report, 'security.critical_threat_unmitigated')).toHaveLength(1);
    expect(issuesOf(report, 'security.critical_threat_unmitigated')[0]).toMatchObject({
      severity: 'CRITICAL',
      module: 'auth',
      remediation: { agent_to_rerun: '07-code' },
    });
    expect(issuesOf(report, 'security.critical_threat_unmitigated')[0]?.description).toContain('parameterize queries');
    expect(issuesOf(report, 'security.high_threat_unmitigated').map((issue) => issue.related_ids)).toEqual([
      ['THR-003'],
    ]);
  });

  it('the optional threat model is never required', () => {
    const report = reviewMutated((run) => {
      delete (run as Partial<typeof run>).threat_model;
    });
    expect(report.issues).toEqual([]);
  });

  it('a test naming the NFR in its story_ids covers it too', () => {
    const report = reviewMutated((run) => {
      const test = list(run.test_report, 'test_cases')[2] as Record<string, unknown>;
      test.requirement_ids = [];
      test.controls = [];
      test.story_ids = ['NFR-001'];
    });
    expect(issuesOf(report, 'security.nfr_without_test')).toEqual([]);
  });
});
