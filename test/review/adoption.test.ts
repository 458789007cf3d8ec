import { describe, expect, it } from 'vitest';
import { reviewPipeline } from '../../src/review/core/review-pipeline.js';
import { asContracts, cleanRun, issuesOf, list, rulesOf, TIMESTAMP } from './fixtures.js';

const harvested = { source: 'brownfield-adoption', adopted_at: '2025-01-30T09:00:00Z', evidence: ['README.md'] };

// An adopted run: harvested baselines (02, 06, 07, 08) plus new work on FR-010.
function adoptedRun() {
  return {
    requirement_spec: {
      ...harvested,
      requirement_sources: ['README.md', 'docs/billing.md'],
      requirements: [
        { id: 'FR-001', type: 'functional', title: 'Existing invoicing' },
        { id: 'FR-010', type: 'functional', title: 'Export invoices as CSV', source: 'pipeline' },
      ],
    },
    jira_tickets: {
      contract_version: '1.1',
      timestamp: '2025-01-31T10:00:00Z',
      epics: [
        {
          user_stories: [
            {
              story_id: 'US-010',
              title: 'CSV export',
              linked_requirements: ['FR-010'],
              story_points: 3,
              sprint: 1,
              assignee: 'bo',
            },
          ],
        },
      ],
    },
    system_design: { ...harvested, services: [{ name: 'billing' }] },
    code_report: {
      ...harvested,
      files: [{ path: 'src/billing/export.ts', implements: ['US-010'], service: 'billing', source: 'pipeline' }],
    },
    test_report: {
      ...harvested,
      test_files: ['test/billing.test.ts'],
      test_levels: { acceptance: { stories_covered: ['US-010'] } },
    },
    documentation: { ...harvested, docs: ['README.md', 'docs/billing.md'] },
    deployment_report: { ...harvested, environments: ['production'], ci_pipelines: ['.github/workflows/ci.yml'] },
  };
}

describe('adopted (brownfield) runs', () => {
  const report = reviewPipeline(asContracts(adoptedRun()), { timestamp: TIMESTAMP, manifest: { mode: 'adopt' } });

  it('does not report the stages adoption skips as missing', () => {
    expect(rulesOf(report)).not.toContain('contract.missing');
    expect(report.analysis_scope.mode).toBe('adopt');
    expect(report.analysis_scope.contracts_skipped).toEqual([
      'artifacts/stages/01-transcript/transcript.json',
      'artifacts/stages/04-planning/plan.json',
      'artifacts/stages/10-summary/summary.json',
      'artifacts/stages/12-security-threat-model/threat_model.json',
      'artifacts/stages/13-compliance-checker/compliance_report.json',
      'artifacts/stages/14-cost-estimation/cost_estimate.json',
    ]);
    expect(report.pipeline_status).toBe('REVIEWED_AND_COMPLETE');
  });

  it('scores the new work apart from the baseline coverage', () => {
    expect(report.traceability_matrix).toMatchObject({
      total_requirements: 1,
      requirements_fully_traced: 1,
      coverage_percentage: 100,
    });
    expect(report.traceability_matrix.baseline).toMatchObject({
      total_requirements: 1,
      requirements_fully_traced: 0,
      coverage_percentage: 0,
    });
  });

  it('caps baseline gaps at INFO and names what to read first', () => {
    const baseline = report.issues.filter((issue) => issue.baseline === true);
    expect(baseline.length).toBeGreaterThan(0);
    for (const issue of baseline) {
      expect(issue.severity).toBe('INFO');
      expect(issue.remediation.read_first).toEqual(expect.arrayContaining(['README.md', 'docs/billing.md']));
      expect(issue.remediation.action).toMatch(/^Read .* first/);
      expect(issue.remediation.can_auto_remediate).toBe(false);
    }
    expect(baseline.map((issue) => issue.rule)).toContain('traceability.requirement_without_story');
  });

  it('reports baseline tests that were detected but never executed as a WARNING', () => {
    const [issue] = report.issues.filter((entry) => entry.rule === 'adoption.baseline_tests_not_executed');
    expect(issue).toMatchObject({ severity: 'WARNING', remediation: { agent_to_rerun: '08-testing' } });
  });

  it('leaves baseline issues out of the main score and scores them apart in summary.baseline', () => {
    const thin = adoptedRun();
    thin.requirement_spec.requirements.push(
      ...Array.from({ length: 30 }, (_, index) => ({
        id: `FR-${100 + index}`,
        type: 'functional',
        title: 'Legacy behaviour',
      })),
    );
    const scored = reviewPipeline(asContracts(thin), { timestamp: TIMESTAMP, manifest: { mode: 'adopt' } });
    const baseline = scored.issues.filter((issue) => issue.baseline === true);
    const main = scored.issues.filter((issue) => issue.baseline !== true);
    expect(baseline.length).toBeGreaterThan(90);
    expect(scored.summary).toMatchObject({
      total_issues: main.length,
      info_count: main.filter((issue) => issue.severity === 'INFO').length,
    });
    expect(scored.summary.overall_consistency_score).toBe(report.summary.overall_consistency_score);
    expect(scored.summary.overall_consistency_score).toBeGreaterThanOrEqual(90);
    expect(scored.summary.baseline).toEqual({
      total_issues: baseline.length,
      critical_count: 0,
      warning_count: 0,
      info_count: baseline.length,
      overall_consistency_score: Math.max(0, 100 - 0.5 * baseline.length),
      pipeline_health: 'CRITICAL_GAPS',
    });
    expect('baseline' in reviewPipeline(asContracts(thin), { timestamp: TIMESTAMP }).summary).toBe(false);
  });

  it('without the adopt manifest, a brownfield-adoption source is not baseline: full severity, main coverage', () => {
    const greenfield = reviewPipeline(asContracts(adoptedRun()), { timestamp: TIMESTAMP });
    expect(greenfield.issues.filter((issue) => issue.baseline === true)).toEqual([]);
    expect(greenfield.traceability_matrix.baseline).toBeUndefined();
    expect(greenfield.traceability_matrix.total_requirements).toBe(2);
    expect(greenfield.traceability_matrix.requirements.map((row) => row.baseline)).toEqual([false, false]);
    expect(issuesOf(greenfield, 'traceability.requirement_without_story')).toMatchObject([
      { severity: 'CRITICAL', related_ids: ['FR-001'] },
    ]);
    expect(rulesOf(greenfield)).not.toContain('adoption.baseline_tests_not_executed');
  });

  it('marks a failed test case of its own baseline only on an adopted run', () => {
    const run = cleanRun();
    const cases = list(run.test_report, 'test_cases');
    cases[0] = { ...cases[0], status: 'failed', source: 'brownfield-adoption' };
    const failed = (manifest?: unknown) =>
      issuesOf(reviewPipeline(asContracts(run), { timestamp: TIMESTAMP, manifest }), 'traceability.test_failed');
    expect(failed({ mode: 'adopt' })).toMatchObject([
      { severity: 'INFO', baseline: true, related_ids: ['TC-001', 'US-001', 'FR-001'] },
    ]);
    const greenfield = failed();
    expect(greenfield).toMatchObject([{ severity: 'WARNING', related_ids: ['TC-001', 'US-001', 'FR-001'] }]);
    expect(greenfield[0]?.baseline).toBeUndefined();
  });

  it('on an adopted run, a failed test case of a harvested report is baseline without a mark of its own', () => {
    const run = cleanRun();
    run.test_report = { ...run.test_report, source: 'brownfield-adoption' };
    const cases = list(run.test_report, 'test_cases');
    cases[0] = { ...cases[0], status: 'failed' };
    cases[1] = { ...cases[1], status: 'failed', source: 'pipeline' };
    const report = reviewPipeline(asContracts(run), { timestamp: TIMESTAMP, manifest: { mode: 'adopt' } });
    expect(issuesOf(report, 'traceability.test_failed')).toMatchObject([
      { severity: 'WARNING', related_ids: ['TC-002', 'US-002', 'FR-002'] },
      { severity: 'INFO', baseline: true, related_ids: ['TC-001', 'US-001', 'FR-001'] },
    ]);
  });

  it('without the adopt manifest, the same run reports the skipped stages missing', () => {
    const greenfield = reviewPipeline(asContracts(adoptedRun()), { timestamp: TIMESTAMP });
    expect(
      greenfield.issues.filter((issue) => issue.rule === 'contract.missing').map((issue) => issue.source_agent),
    ).toEqual(['01-transcript', '04-planning', '10-summary']);
  });
});
