import { describe, expect, it } from 'vitest';
import { parseGoal } from '../../src/contracts/goal.js';
import { agentCriterionEntrySchema } from '../../src/contracts/goal-evaluation.js';
import type { Goal } from '../../src/contracts/goal.js';
import { list, reviewMutated } from './fixtures.js';

// Parses a goal or fails the test.
function goal(input: unknown): Goal {
  const parsed = parseGoal(input);
  if (!parsed.success) throw new Error(JSON.stringify(parsed.issues));
  return parsed.data;
}

const GOAL = goal({
  schema_version: 1,
  goal_id: 'ship-auth',
  criteria: [
    { id: 'no-criticals', kind: 'metric_threshold', source: 'feedback', metric: 'summary.critical_count', operator: '==', value: 0, rerun_stages: ['08-testing'] },
    { id: 'docs', kind: 'file_exists', path: 'artifacts/stages/03-documentation/documentation.json', run_relative: true },
    { id: 'lint', kind: 'command', command: 'npm run lint' },
    { id: 'design-review', kind: 'judge', question: 'Is the design sound?' },
    { id: 'loop-metric', kind: 'metric_threshold', source: 'loop_state', metric: 'x', operator: '>=', value: 1 },
  ],
});

describe('goal_evaluation authoring', () => {
  it('without goal.json emits the block with empty criteria', () => {
    const report = reviewMutated(() => {});
    expect(report.goal_evaluation).toEqual({
      goal_id: 'pipeline-complete',
      status: 'PASS',
      consistency_score: 100,
      critical_count: 0,
      failing_stages: [],
      recommended_rerun_stages: [],
      requires_human_decision: false,
      reason: 'No CRITICAL issue; consistency score 100 (HEALTHY).',
      criteria: [],
    });
  });

  it('stamps the section and every criterion with the latest loop iteration, never another', () => {
    const report = reviewMutated(() => {}, { goal: GOAL, iteration: 4 });
    expect(report.goal_evaluation.iteration).toBe(4);
    expect(report.goal_evaluation.criteria.map((entry) => entry.iteration)).toEqual([4, 4, 4, 4, 4]);
    const outside = reviewMutated(() => {}, { goal: GOAL, iteration: null });
    expect('iteration' in outside.goal_evaluation).toBe(false);
    expect(outside.goal_evaluation.criteria.every((entry) => entry.iteration === undefined)).toBe(true);
  });

  it('gives a result only with existing evidence, else unknown', () => {
    const report = reviewMutated(() => {}, { goal: GOAL, iteration: 1, fileChecks: new Map([['docs', { exists: true }]]) });
    const byId = new Map(report.goal_evaluation.criteria.map((entry) => [entry.criterion_id, entry]));
    expect(byId.get('no-criticals')).toMatchObject({ result: 'met', evidence: ['artifacts/stages/11-feedback-loop/feedback.json'] });
    expect(byId.get('docs')).toMatchObject({ result: 'met', evidence: ['artifacts/stages/03-documentation/documentation.json'] });
    for (const id of ['lint', 'design-review', 'loop-metric']) expect(byId.get(id)).toMatchObject({ result: 'unknown', evidence: [] });
    const missing = reviewMutated(() => {}, { goal: GOAL, iteration: 1 });
    expect(missing.goal_evaluation.criteria.find((entry) => entry.criterion_id === 'docs')).toMatchObject({ result: 'unknown', evidence: [] });
    for (const entry of report.goal_evaluation.criteria) expect(agentCriterionEntrySchema.safeParse(entry).success).toBe(true);
  });

  it('not_met includes 11-feedback-loop and the remediating stages in its rerun stages', () => {
    const report = reviewMutated(
      (run) => {
        list(run.test_report, 'test_cases').splice(1, 1);
      },
      { goal: GOAL, iteration: 2 },
    );
    const entry = report.goal_evaluation.criteria.find((candidate) => candidate.criterion_id === 'no-criticals');
    expect(entry).toMatchObject({ result: 'not_met', recommendation: 'retry', recommended_rerun_stages: ['08-testing', '11-feedback-loop'], iteration: 2 });
    expect(report.goal_evaluation).toMatchObject({ status: 'RETRY', critical_count: 1, failing_stages: ['08-testing'], recommended_rerun_stages: ['08-testing', '11-feedback-loop'], requires_human_decision: false });
  });

  it('every criterion entry, met, not_met or unknown, carries a recommendation (retry, as rstack-agents defaults)', () => {
    const report = reviewMutated(
      (run) => {
        list(run.test_report, 'test_cases').splice(1, 1);
      },
      { goal: GOAL, iteration: 1, fileChecks: new Map([['docs', { exists: true }]]) },
    );
    const entries = report.goal_evaluation.criteria;
    expect(new Set(entries.map((entry) => entry.result))).toEqual(new Set(['met', 'not_met', 'unknown']));
    expect(entries.map((entry) => entry.recommendation)).toEqual(['retry', 'retry', 'retry', 'retry', 'retry']);
  });

  it('asks a human when only judge criteria remain open, or when goal.json is invalid', () => {
    const report = reviewMutated(() => {}, { goal: GOAL, iteration: 1 });
    expect(report.goal_evaluation).toMatchObject({ status: 'ASK_USER', requires_human_decision: true, recommended_rerun_stages: [] });
    const invalid = reviewMutated(() => {}, { goal: null, goalIssues: [{ code: 'invalid_type', path: ['criteria'], message: 'x' }] });
    expect(invalid.goal_evaluation).toMatchObject({ status: 'ASK_USER', criteria: [] });
    expect(invalid.goal_evaluation.reason).toContain('goal.json is invalid');
  });
});
