// A clean canonical run (no findings) that each test mutates to trigger one rule, and the ship-auth goal the
// goal_evaluation tests review it against.

import type { Goal } from '../../src/goal/contracts/goal.js';
import { parseGoalStructure as parseGoal } from '../../src/goal/contracts/parse-goal.js';
import type { FeedbackReport } from '../../src/review/contracts/feedback-report.js';
import type { ReviewContracts } from '../../src/review/core/contract-input.js';
import type { ContractKey } from '../../src/review/core/contract-slots.js';
import { type ReviewOptions, reviewPipeline } from '../../src/review/core/review-pipeline.js';

export type RunDocuments = Partial<Record<ContractKey, unknown>>;

const meta = (minute: number) => ({
  contract_version: '1.1',
  produced_by: 'test',
  timestamp: `2025-01-31T10:${String(minute).padStart(2, '0')}:00Z`,
});

// Builds the documents of a small, fully consistent run.
export function cleanRun(): Record<ContractKey, Record<string, unknown>> {
  return {
    transcript: { ...meta(0), meetings: [] },
    requirement_spec: {
      ...meta(1),
      requirements: [
        { id: 'FR-001', type: 'functional', title: 'Sign in' },
        { id: 'FR-002', type: 'functional', title: 'Sign out' },
        { id: 'NFR-001', type: 'non_functional', category: 'security', title: 'Passwords are hashed' },
      ],
    },
    documentation: {
      ...meta(2),
      documents: [
        { type: 'BRD', path: 'docs/BRD.md', covers: ['FR-001'] },
        { type: 'FRD', path: 'docs/FRD.md', covers: ['FR-001', 'FR-002'] },
        { type: 'SOW', path: 'docs/SOW.md', covers: [] },
        { type: 'HLD', path: 'docs/HLD.md', covers: [] },
        { type: 'TEST_PLAN', path: 'docs/TEST_PLAN.md', covers: [] },
      ],
    },
    plan: {
      ...meta(3),
      sprints: [
        { sprint: 1, capacity_points: 16 },
        { sprint: 2, capacity_points: 10 },
      ],
      milestones: [{ id: 'M1', name: 'MVP' }],
    },
    jira_tickets: {
      ...meta(4),
      epics: [
        {
          epic_id: 'EPIC-001',
          user_stories: [
            {
              story_id: 'US-001',
              title: 'Sign in',
              linked_requirements: ['FR-001'],
              story_points: 8,
              sprint: 1,
              assignee: 'ana',
            },
            {
              story_id: 'US-002',
              title: 'Sign out',
              linked_requirements: ['FR-002'],
              story_points: 5,
              sprint: 2,
              assignee: 'ana',
              blocked_by: ['US-001'],
            },
          ],
        },
      ],
    },
    system_design: {
      ...meta(5),
      services: [{ name: 'auth' }],
      api_endpoints: [{ method: 'POST', path: '/login', service: 'auth' }],
      database: { tables: [{ name: 'users' }] },
      security_controls: [{ id: 'SC-001', description: 'bcrypt', nfr_ids: ['NFR-001'] }],
    },
    code_report: {
      ...meta(6),
      files: [
        {
          path: 'src/auth/login.ts',
          implements: ['US-001', 'FR-001'],
          service: 'auth',
          endpoints: ['POST /login'],
          tables: ['users'],
          mitigates: ['THR-001'],
        },
        { path: 'src/auth/logout.ts', implements: ['US-002'], service: 'auth' },
      ],
    },
    test_report: {
      ...meta(7),
      test_cases: [
        { id: 'TC-001', story_ids: ['US-001'], requirement_ids: ['FR-001'], status: 'passed' },
        { id: 'TC-002', story_ids: ['US-002'], requirement_ids: ['FR-002'], status: 'passed' },
        { id: 'TC-003', story_ids: [], requirement_ids: ['NFR-001'], controls: ['SC-001'], status: 'passed' },
      ],
    },
    deployment_report: {
      ...meta(8),
      deployed_stories: ['US-001', 'US-002'],
      environments: ['staging', 'production'],
      rollback: 'helm rollback',
    },
    summary: { ...meta(9), status: 'PASS' },
    threat_model: {
      ...meta(10),
      threats: [{ id: 'THR-001', risk_level: 'HIGH', affected_component: 'auth', mitigation: 'rate limit' }],
    },
    compliance_report: { ...meta(11), frameworks: ['GDPR'] },
    cost_estimate: { ...meta(12), total_usd: 100 },
  };
}

// Wraps plain documents as present contract inputs at their canonical paths.
export function asContracts(documents: RunDocuments): ReviewContracts {
  const out: Record<string, unknown> = {};
  for (const [key, document] of Object.entries(documents)) {
    if (document !== undefined) out[key] = { state: 'present', path: '', document };
  }
  return out as ReviewContracts;
}

export const TIMESTAMP = '2025-01-31T12:00:00.000Z';

// Reviews the clean run after `mutate` edits its documents.
export function reviewMutated(
  mutate: (run: Record<ContractKey, Record<string, unknown>>) => void,
  options: Partial<ReviewOptions> = {},
): FeedbackReport {
  const run = structuredClone(cleanRun());
  mutate(run);
  return reviewPipeline(asContracts(run), { timestamp: TIMESTAMP, ...options });
}

// The rules of a report's issues, in report order.
export function rulesOf(report: FeedbackReport): string[] {
  return report.issues.map((issue) => issue.rule ?? '');
}

// The issues of one rule.
export function issuesOf(report: FeedbackReport, rule: string): FeedbackReport['issues'] {
  return report.issues.filter((issue) => issue.rule === rule);
}

// Typed access to a nested array of a fixture document.
export function list(document: Record<string, unknown>, key: string): Record<string, unknown>[] {
  return document[key] as Record<string, unknown>[];
}

// The user stories of the fixture's first epic.
export function stories(run: Record<ContractKey, Record<string, unknown>>): Record<string, unknown>[] {
  return list(list(run.jira_tickets, 'epics')[0] as Record<string, unknown>, 'user_stories');
}

// Parses a goal or fails the test.
function goal(input: unknown): Goal {
  const parsed = parseGoal(input);
  if (!parsed.success) throw new Error(JSON.stringify(parsed.issues));
  return parsed.data;
}

/** The ship-auth goal: a feedback.json metric, a run file, a command, a judge and a loop-state metric. */
export const GOAL = goal({
  schema_version: 1,
  goal_id: 'ship-auth',
  criteria: [
    {
      id: 'no-criticals',
      kind: 'metric_threshold',
      source: 'feedback',
      metric: 'summary.critical_count',
      operator: '==',
      value: 0,
      rerun_stages: ['08-testing'],
    },
    {
      id: 'docs',
      kind: 'file_exists',
      path: 'artifacts/stages/03-documentation/documentation.json',
      run_relative: true,
    },
    { id: 'lint', kind: 'command', command: 'npm run lint' },
    { id: 'design-review', kind: 'judge', question: 'Is the design sound?' },
    { id: 'loop-metric', kind: 'metric_threshold', source: 'loop_state', metric: 'x', operator: '>=', value: 1 },
  ],
});
/** {@link GOAL} without its judge criterion. */
export const NO_JUDGE = { ...GOAL, criteria: GOAL.criteria.filter((criterion) => criterion.kind !== 'judge') };
