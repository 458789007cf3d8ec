import { describe, expect, it } from 'vitest';
import { detectBugSwarms } from '../../../src/review/analyses/bug-swarm.js';
import { planRemediations } from '../../../src/review/analyses/remediation.js';
import { list, reviewMutated } from '../fixtures.js';

describe('bug swarm', () => {
  it('three corrective findings on one module become one preventive rewrite', () => {
    const report = reviewMutated((run) => {
      run.test_report.test_cases = list(run.test_report, 'test_cases').slice(2);
      list(run.requirement_spec, 'requirements').push({ id: 'FR-003', type: 'functional', title: 'x' });
      list(run.code_report, 'files').push({ path: 'src/x.ts', implements: ['FR-003'] });
    });
    expect(report.bug_swarms).toHaveLength(1);
    const [swarm] = report.bug_swarms;
    expect(swarm).toMatchObject({
      id: 'BSW-001',
      module: 'artifacts/stages/08-testing/test_report.json',
      // A rewrite of a module is a human's call: a swarm is never auto-remediated.
      remediation: { maintenance_category: 'preventive', agent_to_rerun: '08-testing', can_auto_remediate: false },
    });
    expect(swarm?.issue_ids).toHaveLength(3);
    expect(swarm?.remediation.read_first).toContain('artifacts/stages/08-testing/test_report.json');
    for (const id of swarm?.issue_ids ?? []) {
      const member = report.issues.find((issue) => issue.id === id);
      expect(member?.remediation.bug_swarm_id).toBe('BSW-001');
      expect(member?.remediation.action).toMatch(/^Covered by bug swarm BSW-001/);
    }
  });

  it('two findings, or non-corrective ones, do not swarm', () => {
    const two = planRemediations([
      {
        rule: 'traceability.story_without_test',
        stage: '08-testing',
        title: 'a',
        description: '',
        artifacts: ['m'],
        ids: [],
        action: 'x',
      },
      {
        rule: 'traceability.story_without_test',
        stage: '08-testing',
        title: 'b',
        description: '',
        artifacts: ['m'],
        ids: [],
        action: 'x',
      },
      {
        rule: 'documentation.core_document_missing',
        stage: '03-documentation',
        title: 'c',
        description: '',
        artifacts: ['m'],
        ids: [],
        action: 'x',
      },
      {
        rule: 'traceability.orphan_test',
        stage: '08-testing',
        title: 'd',
        description: '',
        artifacts: ['m'],
        ids: [],
        action: 'x',
      },
    ]);
    expect(detectBugSwarms(two).swarms).toEqual([]);
  });

  it('groups by service as well as by artifact', () => {
    const issues = planRemediations(
      ['GET /a', 'GET /b', 'GET /c'].map((endpoint) => ({
        rule: 'architecture.endpoint_without_code' as const,
        stage: '07-code',
        title: endpoint,
        description: '',
        artifacts: ['code.json'],
        ids: [endpoint],
        action: 'x',
        module: 'billing',
      })),
    );
    const { swarms } = detectBugSwarms(issues);
    expect(swarms.map((swarm) => swarm.module)).toEqual(['billing']);
  });
});
