import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feedbackReportSchema } from '../../src/review/contracts/feedback-report.js';
import type { ConsistencyReviewResult } from '../../src/review/run-review.js';
import { reviewExample } from './run-files.js';

// The reviews of the shipped example runs: their findings, and the outputs they write (the last test reads what the
// first two wrote).

// The [severity, rule, related ids] of every issue.
function findings(result: ConsistencyReviewResult): [string, string | undefined, string[] | undefined][] {
  return result.report.issues.map((issue) => [issue.severity, issue.rule, issue.related_ids]);
}

describe('examples/runs', () => {
  let root = '';
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'goal-loop-examples-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('canonical-bookshop: the seven deliberate gaps, and nothing else', async () => {
    const result = await reviewExample('canonical-bookshop', root);
    expect(findings(result)).toEqual([
      ['CRITICAL', 'traceability.requirement_without_story', ['FR-012']],
      ['CRITICAL', 'traceability.story_without_test', ['US-009', 'FR-009']],
      ['CRITICAL', 'architecture.endpoint_without_code', ['DELETE /orders/{id}']],
      ['WARNING', 'capacity.developer_tight', ['US-006', 'US-009']],
      ['WARNING', 'security.high_threat_unmitigated', ['THR-002']],
      ['WARNING', 'documentation.frd_incomplete', ['FR-012']],
      ['WARNING', 'references.dangling', ['US-099']],
      ['INFO', 'traceability.orphan_test', ['TC-020']],
    ]);
    const { report } = result;
    expect(report.issues.map((issue) => issue.remediation.agent_to_rerun)).toEqual([
      '05-jira',
      '08-testing',
      '07-code',
      '05-jira',
      '07-code',
      '03-documentation',
      '08-testing',
      '08-testing',
    ]);
    expect(report.summary).toEqual({
      total_issues: 8,
      critical_count: 3,
      warning_count: 4,
      info_count: 1,
      overall_consistency_score: 57.5,
      pipeline_health: 'CRITICAL_GAPS',
    });
    expect(report.traceability_matrix).toMatchObject({
      total_requirements: 12,
      requirements_with_stories: 11,
      requirements_with_code: 12,
      requirements_with_tests: 11,
      requirements_fully_traced: 10,
      coverage_percentage: 83.3,
    });
    expect(report.analysis_scope).toMatchObject({
      mode: 'greenfield',
      contracts_missing: [],
      contracts_malformed: [],
      optional_agents_detected: ['12-security-threat-model'],
    });
    expect(report.bug_swarms).toEqual([]);
    expect(report.goal_evaluation).toMatchObject({
      goal_id: 'bookshop-release',
      iteration: 1,
      // The criticals are rerun first; the ux-review judge is asked once nothing else is.
      status: 'RETRY',
      critical_count: 3,
      recommended_rerun_stages: ['03-documentation', '05-jira', '07-code', '08-testing', '11-feedback-loop'],
      reason: expect.stringContaining('Judge ux-review is asked once nothing else is rerun.'),
    });
    expect(report.goal_evaluation.criteria.map((entry) => [entry.criterion_id, entry.result])).toEqual([
      ['no-criticals', 'not_met'],
      ['design-exists', 'met'],
      ['ux-review', 'unknown'],
    ]);
    expect(report.goal_evaluation.criteria[0]?.recommended_rerun_stages).toContain('11-feedback-loop');
  });

  it('rstack-invoicing: every id and link the rstack shapes carry, the rest reported as gaps', async () => {
    const result = await reviewExample('rstack-invoicing', root);
    const { report } = result;
    expect(report.analysis_scope.legacy_paths_used).toEqual([
      'artifacts/documents/documentation_output.json',
      'artifacts/jira/jira_tickets.json',
      'artifacts/pipeline_final.json',
    ]);
    expect(report.analysis_scope.contracts_missing).toEqual([]);
    expect(report.analysis_scope.contracts_malformed).toEqual([]);
    const count = (rule: string): number => report.issues.filter((issue) => issue.rule === rule).length;
    expect(count('traceability.requirement_without_story')).toBe(1);
    expect(count('traceability.story_without_test')).toBe(4);
    expect(count('traceability.requirement_without_test')).toBe(0);
    expect(count('traceability.requirement_without_code')).toBe(4);
    expect(count('security.nfr_without_control')).toBe(1);
    expect(count('security.nfr_without_test')).toBe(1);
    expect(count('architecture.service_without_code')).toBe(2);
    expect(count('traceability.test_failed')).toBe(1);
    expect(report.issues.find((issue) => issue.rule === 'references.dangling')).toMatchObject({
      source_agent: '05-jira',
      related_ids: ['FR-004'],
    });
    expect(
      report.issues.filter((issue) => issue.rule === 'references.invalid_id').map((issue) => issue.related_ids),
    ).toEqual([
      ['F-001', 'F-002', 'F-003', 'F-004'],
      ['N-001', 'N-002'],
    ]);
    expect(report.traceability_matrix.requirements.map((row) => [row.requirement_id, row.stories, row.tests])).toEqual([
      ['F-001', ['US-001'], ['test_levels.acceptance']],
      ['F-002', ['US-002'], ['test_levels.acceptance']],
      ['F-003', ['US-003'], ['test_levels.acceptance']],
      ['F-004', [], ['test_levels.acceptance']],
    ]);
    expect(report.summary).toMatchObject({
      critical_count: 7,
      warning_count: 11,
      overall_consistency_score: 0,
      pipeline_health: 'CRITICAL_GAPS',
    });
    expect(
      report.bug_swarms.map((swarm) => [swarm.module, swarm.remediation.agent_to_rerun, swarm.issue_ids.length]),
    ).toEqual([
      ['artifacts/stages/08-testing/test_report.json', '08-testing', 6],
      ['artifacts/stages/07-code/code_report.json', '07-code', 4],
    ]);
    expect(report.goal_evaluation).toMatchObject({ goal_id: 'pipeline-complete', status: 'RETRY', criteria: [] });
    expect('iteration' in report.goal_evaluation).toBe(false);
  });

  it('writes every output of both reviews, valid against the feedback schema', async () => {
    for (const name of ['canonical-bookshop', 'rstack-invoicing']) {
      const feedback = JSON.parse(
        await readFile(join(root, 'runs', name, 'artifacts/stages/11-feedback-loop/feedback.json'), 'utf8'),
      ) as unknown;
      expect(feedbackReportSchema.safeParse(feedback).success).toBe(true);
      expect(await readFile(join(root, 'runs', name, 'artifacts/feedback/consistency_report.json'), 'utf8')).toBe(
        `${JSON.stringify(feedback, null, 2)}\n`,
      );
      expect(
        await readFile(join(root, 'runs', name, 'artifacts/stages/11-feedback-loop/REMEDIATION_PLAN.md'), 'utf8'),
      ).toContain('## Traceability matrix');
      expect(
        JSON.parse(
          await readFile(
            join(
              root,
              'runs',
              name,
              'tasks',
              name === 'canonical-bookshop' ? '11-feedback-loop-i1' : '11-feedback-loop',
              'validation.json',
            ),
            'utf8',
          ),
        ),
      ).toMatchObject({ status: 'FAIL' });
    }
  });
});
