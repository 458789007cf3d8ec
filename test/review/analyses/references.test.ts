import { describe, expect, it } from 'vitest';
import { list, reviewMutated, rulesOf, stories } from '../fixtures.js';

describe('references', () => {
  it('a reference to an id defined nowhere (F-001 vs FR-001) is a dangling WARNING of the referencing stage', () => {
    const report = reviewMutated((run) => {
      const [first] = stories(run);
      if (first !== undefined) first.linked_requirements = ['FR-001', 'F-001'];
    });
    expect(rulesOf(report)).toEqual(['references.dangling']);
    expect(report.issues[0]).toMatchObject({
      severity: 'WARNING',
      source_agent: '05-jira',
      related_ids: ['F-001'],
      remediation: { agent_to_rerun: '05-jira' },
    });
  });

  it('checks every reference field', () => {
    const report = reviewMutated((run) => {
      (list(run.code_report, 'files')[0] as Record<string, unknown>).implements = ['US-001', 'FR-001', 'US-404'];
      (list(run.code_report, 'files')[0] as Record<string, unknown>).mitigates = ['THR-001', 'THR-404'];
      (list(run.test_report, 'test_cases')[2] as Record<string, unknown>).controls = ['SC-001', 'SC-404'];
      run.deployment_report.deployed_stories = ['US-001', 'US-002', 'US-404'];
      (list(run.system_design, 'security_controls')[0] as Record<string, unknown>).nfr_ids = ['NFR-001', 'NFR-404'];
      const [, second] = stories(run);
      if (second !== undefined) second.blocked_by = ['US-001', 'US-404'];
    });
    const dangling = report.issues.filter((issue) => issue.rule === 'references.dangling');
    expect(dangling.map((issue) => [issue.source_agent, issue.related_ids])).toEqual([
      ['05-jira', ['US-404']],
      ['06-architecture', ['NFR-404']],
      ['07-code', ['US-404']],
      ['07-code', ['THR-404']],
      ['08-testing', ['SC-404']],
      ['09-deployment', ['US-404']],
    ]);
  });

  it('an id that does not match its pattern is a WARNING of the defining stage', () => {
    const report = reviewMutated((run) => {
      const requirements = list(run.requirement_spec, 'requirements');
      requirements.push({ id: 'REQ-7', type: 'functional', title: 'x' });
    });
    expect(rulesOf(report)).toContain('references.invalid_id');
    const issue = report.issues.find((entry) => entry.rule === 'references.invalid_id');
    expect(issue).toMatchObject({ source_agent: '02-requirements', related_ids: ['REQ-7'] });
  });

  it('an id defined twice is a WARNING', () => {
    const report = reviewMutated((run) => {
      list(run.test_report, 'test_cases').push({
        id: 'TC-001',
        story_ids: ['US-001'],
        requirement_ids: [],
        status: 'passed',
      });
    });
    expect(rulesOf(report)).toEqual(['references.duplicate_id']);
    expect(report.issues[0]).toMatchObject({ source_agent: '08-testing', related_ids: ['TC-001'] });
  });

  it('a duplicate finding counts the ids defined twice, in its title and its sentence', () => {
    const again = (id: string) => ({ id, story_ids: ['US-001'], requirement_ids: [], status: 'passed' });
    const one = reviewMutated((run) => {
      list(run.test_report, 'test_cases').push(again('TC-001'));
    }).issues[0];
    expect(one?.title).toBe('1 id defined twice in test_report');
    expect(one?.description).toMatch(/ is defined more than once in test_report; references to it are ambiguous\.$/);
    const two = reviewMutated((run) => {
      list(run.test_report, 'test_cases').push(again('TC-001'), again('TC-002'));
    }).issues[0];
    expect(two?.title).toBe('2 ids defined twice in test_report');
    expect(two?.description).toMatch(/ are defined more than once in test_report; references to them are ambiguous\.$/);
  });

  it('does not check references into a contract that was not read', () => {
    const report = reviewMutated((run) => {
      delete (run as Partial<typeof run>).requirement_spec;
    });
    expect(rulesOf(report)).not.toContain('references.dangling');
  });

  it("checks the links of a story's later definition too: an unknown id there is dangling", () => {
    const report = reviewMutated((run) => {
      stories(run).push({ ...stories(run)[0], linked_requirements: ['FR-404'] });
    });
    const dangling = report.issues.filter((issue) => issue.rule === 'references.dangling');
    expect(dangling.map((issue) => [issue.source_agent, issue.related_ids])).toEqual([['05-jira', ['FR-404']]]);
  });
});
