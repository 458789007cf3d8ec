import { describe, expect, it } from 'vitest';
import { readStageContract } from '../../../src/review/contracts/registry.js';

// The value of a successful read, or a failed test.
function ok<T>(read: { ok: true; value: T } | { ok: false; issues: readonly unknown[] }): T {
  if (!read.ok) throw new Error(`expected a valid contract, got ${JSON.stringify(read.issues)}`);
  return read.value;
}

describe('readers of rstack-agents shapes', () => {
  it('requirement_spec: functional[] / non_functional[] with their ids, furps as category', () => {
    const spec = ok(
      readStageContract('requirement_spec', {
        functional: [{ id: 'F-001', description: 'Validate totals', category: 'functional', priority: 'must' }],
        non_functional: [{ id: 'N-001', category: 'nonfunctional', furps: 'security', requirement: 'TLS 1.3' }],
        requirement_sources: ['docs/spec.md'],
        status: 'PASS',
      }),
    );
    expect(spec.requirements).toEqual([
      { id: 'F-001', type: 'functional', category: 'functional', title: 'Validate totals', baseline: false },
      { id: 'N-001', type: 'non_functional', category: 'security', title: 'TLS 1.3', baseline: false },
    ]);
    expect(spec.sources).toEqual(['docs/spec.md']);
  });

  it('documentation: documents_created[] paths, types from file names, no coverage claimed', () => {
    const documentation = ok(
      readStageContract('documentation', {
        contract_version: '1.0',
        documents_created: ['$RSTACK_RUN_DIR/artifacts/documents/BRD.md', 'docs/test-plan.md', 'docs/notes.md'],
      }),
    );
    expect(documentation.documents).toEqual([
      { type: 'BRD', path: '$RSTACK_RUN_DIR/artifacts/documents/BRD.md', covers: null },
      { type: 'TEST_PLAN', path: 'docs/test-plan.md', covers: null },
      { type: 'OTHER', path: 'docs/notes.md', covers: null },
    ]);
  });

  it('plan: milestones[] and tasks[] without sprints', () => {
    const plan = ok(readStageContract('plan', { milestones: [{ name: 'M1' }], tasks: [{ id: 'T-001' }], risks: [] }));
    expect(plan).toMatchObject({ sprints: null, milestones: 1 });
  });

  it('jira_tickets: the shared epics/user_stories shape, sprint labels normalized', () => {
    const jira = ok(
      readStageContract('jira_tickets', {
        epics: [
          {
            epic_id: 'EPIC-001',
            user_stories: [
              {
                story_id: 'US-001',
                title: 't',
                linked_requirements: ['FR-001'],
                story_points: 5,
                sprint: 'Sprint 2',
                tasks: [{ assignee_role: 'Backend Dev' }],
              },
            ],
          },
        ],
      }),
    );
    expect(jira.stories[0]).toMatchObject({
      id: 'US-001',
      epic: 'EPIC-001',
      sprint: { key: '2', order: 2 },
      assignee: null,
      points: 5,
    });
  });

  it('system_design: services[] with database.engine and security.auth, nothing else to check', () => {
    const design = ok(
      readStageContract('system_design', {
        tech_stack: {},
        services: [{ name: 'api', responsibility: 'x' }],
        database: { engine: 'postgresql' },
        security: { auth: 'JWT' },
      }),
    );
    expect(design).toMatchObject({ services: ['api'], endpoints: [], tables: [], controls: [] });
  });

  it('code_report: files_created[] paths without links', () => {
    const code = ok(
      readStageContract('code_report', {
        files_created: ['src/index.ts'],
        entry_point: 'src/index.ts',
        status: 'PASS',
      }),
    );
    expect(code.files).toEqual([{ path: 'src/index.ts', implements: [] }]);
  });

  it('test_report: test_levels.<level>.requirements_covered become level entries; results.failed counts', () => {
    const report = ok(
      readStageContract('test_report', {
        test_files: ['tests/a.test.ts'],
        results: { passed: 40, failed: 2, skipped: 0 },
        test_levels: {
          acceptance: { requirements_covered: ['FR-001', 'FR-002'] },
          unit: { stories_covered: ['US-001'] },
        },
      }),
    );
    expect(report.tests).toEqual([
      { id: 'test_levels.acceptance', story_ids: [], requirement_ids: ['FR-001', 'FR-002'], status: 'unknown' },
      { id: 'test_levels.unit', story_ids: ['US-001'], requirement_ids: [], status: 'unknown' },
    ]);
    expect(report).toMatchObject({ unnamedFailures: 2, executed: true });
  });

  it('deployment_report: environments, cutover and rollback without deployed stories', () => {
    const deployment = ok(
      readStageContract('deployment_report', {
        files_created: ['Dockerfile'],
        environments: ['local', 'staging'],
        cutover: { strategy: 'staged' },
        rollback: 'docker compose down',
      }),
    );
    expect(deployment).toMatchObject({ deployedStories: null, environments: ['local', 'staging'] });
  });

  it('threat_model: mitigation objects', () => {
    const threats = ok(
      readStageContract('threat_model', {
        threats: [
          {
            id: 'THR-001',
            risk_level: 'CRITICAL',
            affected_component: 'auth',
            mitigation: { description: 'rotate keys', type: 'PREVENT' },
          },
        ],
      }),
    );
    expect(threats.threats).toEqual([
      { id: 'THR-001', risk: 'CRITICAL', component: 'auth', mitigation: 'rotate keys' },
    ]);
  });

  it('reports every issue with its path when neither shape fits', () => {
    const read = readStageContract('jira_tickets', {
      epics: [{ user_stories: [{ story_id: '', title: 1, linked_requirements: 'FR-1' }] }],
    });
    expect(read.ok).toBe(false);
    if (!read.ok)
      expect(read.issues.map((issue) => issue.path.join('.'))).toEqual([
        'epics.0.user_stories.0.story_id',
        'epics.0.user_stories.0.title',
        'epics.0.user_stories.0.linked_requirements',
      ]);
  });
});
