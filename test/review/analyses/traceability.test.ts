import { describe, expect, it } from 'vitest';
import { issuesOf, list, reviewMutated, rulesOf } from '../fixtures.js';

describe('requirements traceability', () => {
  it('a clean run has no findings and full coverage', () => {
    const report = reviewMutated(() => {});
    expect(report.issues).toEqual([]);
    expect(report.traceability_matrix).toMatchObject({
      total_requirements: 2,
      requirements_fully_traced: 2,
      coverage_percentage: 100,
    });
    expect(report.traceability_matrix.requirements[0]).toMatchObject({
      requirement_id: 'FR-001',
      stories: ['US-001'],
      code: ['src/auth/login.ts'],
      tests: ['TC-001'],
      deployment: ['US-001'],
      fully_traced: true,
    });
  });

  it('an FR with no story is CRITICAL, owned by 05-jira', () => {
    const report = reviewMutated((run) => {
      list(run.requirement_spec, 'requirements').push({ id: 'FR-003', type: 'functional', title: 'Reset password' });
    });
    const [issue] = issuesOf(report, 'traceability.requirement_without_story');
    expect(issue).toMatchObject({
      severity: 'CRITICAL',
      related_ids: ['FR-003'],
      remediation: { agent_to_rerun: '05-jira', maintenance_category: 'corrective' },
    });
    expect(rulesOf(report)).toContain('traceability.requirement_without_test');
    expect(rulesOf(report)).toContain('traceability.requirement_without_code');
    expect(report.traceability_matrix).toMatchObject({
      total_requirements: 3,
      requirements_fully_traced: 2,
      coverage_percentage: 66.7,
    });
  });

  it('a story with no test case is CRITICAL, owned by 08-testing', () => {
    const report = reviewMutated((run) => {
      list(run.test_report, 'test_cases').splice(1, 1);
    });
    expect(rulesOf(report)).toEqual(['traceability.story_without_test']);
    expect(report.issues[0]).toMatchObject({
      id: 'FBK-001',
      severity: 'CRITICAL',
      related_ids: ['US-002', 'FR-002'],
      remediation: { agent_to_rerun: '08-testing' },
    });
    expect(report.traceability_matrix.requirements[1]).toMatchObject({
      requirement_id: 'FR-002',
      tests: [],
      fully_traced: false,
    });
  });

  it('an FR with stories but no code is a WARNING, owned by 07-code', () => {
    const report = reviewMutated((run) => {
      list(run.code_report, 'files').splice(1, 1);
    });
    expect(rulesOf(report)).toEqual(['traceability.requirement_without_code']);
    expect(report.issues[0]).toMatchObject({
      severity: 'WARNING',
      remediation: { agent_to_rerun: '07-code', estimated_effort: '2 hours' },
    });
  });

  it('an orphan test case is INFO', () => {
    const report = reviewMutated((run) => {
      list(run.test_report, 'test_cases').push({ id: 'TC-009', story_ids: [], requirement_ids: [], status: 'passed' });
    });
    expect(rulesOf(report)).toEqual(['traceability.orphan_test']);
    expect(report.issues[0]).toMatchObject({ severity: 'INFO', related_ids: ['TC-009'] });
  });

  it('a field of the file cannot make a test case pass for a test level: it is still checked like any test case', () => {
    const report = reviewMutated((run) => {
      list(run.test_report, 'test_cases').push({
        id: 'bogus',
        story_ids: [],
        requirement_ids: [],
        status: 'passed',
        synthetic: true,
      });
    });
    expect(rulesOf(report).sort()).toEqual(['references.invalid_id', 'traceability.orphan_test']);
  });

  it('an rstack test level that covers nothing is no orphan test case (it has no test-case id of its own)', () => {
    const report = reviewMutated((run) => {
      run.test_report = {
        test_files: ['tests/a.test.ts'],
        test_levels: { acceptance: {}, unit: { stories_covered: ['US-001', 'US-002'] } },
      };
    });
    expect(rulesOf(report)).not.toContain('traceability.orphan_test');
    expect(rulesOf(report)).not.toContain('references.invalid_id');
  });

  it('a test case whose requirement ids are all unknown is an orphan; one known id beside an unknown one is not', () => {
    const report = reviewMutated((run) => {
      const cases = list(run.test_report, 'test_cases');
      cases.push({ id: 'TC-009', story_ids: [], requirement_ids: ['FR-999'], status: 'passed' });
      cases.push({ id: 'TC-010', story_ids: [], requirement_ids: ['FR-998', 'FR-001'], status: 'passed' });
    });
    expect(issuesOf(report, 'traceability.orphan_test').map((issue) => issue.related_ids)).toEqual([['TC-009']]);
    // The unknown ids are dangling references, each once.
    expect(issuesOf(report, 'references.dangling')[0]?.related_ids).toEqual(['FR-999', 'FR-998']);
  });

  it('a failed test case is a WARNING for the code stage', () => {
    const report = reviewMutated((run) => {
      (list(run.test_report, 'test_cases')[0] as Record<string, unknown>).status = 'failed';
    });
    expect(rulesOf(report)).toEqual(['traceability.test_failed']);
    expect(report.issues[0]?.remediation.agent_to_rerun).toBe('07-code');
  });

  it('skips link rules whose contracts are missing instead of flagging every requirement', () => {
    const report = reviewMutated((run) => {
      delete (run as Partial<typeof run>).jira_tickets;
    });
    expect(rulesOf(report)).not.toContain('traceability.requirement_without_story');
    expect(rulesOf(report)).not.toContain('traceability.story_without_test');
    expect(rulesOf(report)).toContain('contract.missing');
  });

  it('counts deployment per requirement when the deployment report lists stories', () => {
    const report = reviewMutated((run) => {
      run.deployment_report.deployed_stories = ['US-001'];
    });
    expect(report.traceability_matrix).toMatchObject({ requirements_with_deployment: 1, requirements_fully_traced: 2 });
  });

  it('counts a story as covered only by explicit links, never by guessing', () => {
    const report = reviewMutated((run) => {
      const test = list(run.test_report, 'test_cases')[1] as Record<string, unknown>;
      test.story_ids = [];
    });
    expect(rulesOf(report)).toEqual(['traceability.story_without_test']);
  });

  it('a test case whose requirement_ids name only a story is an orphan (a story id is no requirement)', () => {
    const report = reviewMutated((run) => {
      list(run.test_report, 'test_cases').push({
        id: 'TC-009',
        story_ids: [],
        requirement_ids: ['US-001'],
        status: 'passed',
      });
    });
    expect(issuesOf(report, 'traceability.orphan_test').map((issue) => issue.related_ids)).toEqual([['TC-009']]);
  });

  it('without the jira contract, a test case linked only to a story is no orphan; one linked to nothing still is', () => {
    const addTests = (run: { test_report: Record<string, unknown> }) => {
      const cases = list(run.test_report, 'test_cases');
      cases.push({ id: 'TC-009', story_ids: ['US-777'], requirement_ids: [], status: 'passed' });
      cases.push({ id: 'TC-010', story_ids: [], requirement_ids: [], status: 'passed' });
    };
    const unread = reviewMutated((run) => {
      delete (run as Partial<typeof run>).jira_tickets;
      addTests(run);
    });
    // With no stories read, whether US-777 leads to a requirement cannot be told: no finding guesses it does not.
    expect(issuesOf(unread, 'traceability.orphan_test').map((issue) => issue.related_ids)).toEqual([['TC-010']]);
    // With the jira contract read, the story is known to lead nowhere: both are orphans.
    const read = reviewMutated(addTests);
    expect(issuesOf(read, 'traceability.orphan_test').map((issue) => issue.related_ids)).toEqual([
      ['TC-009'],
      ['TC-010'],
    ]);
  });
});
