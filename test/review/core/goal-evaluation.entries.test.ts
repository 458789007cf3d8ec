import { describe, expect, it } from 'vitest';
import { agentCriterionEntrySchema } from '../../../src/goal/contracts/goal-evaluation.js';
import { GOAL, list, NO_JUDGE, reviewMutated } from '../fixtures.js';

// The criteria entries the review authors into goal_evaluation: stamped with the iteration, a result only with
// evidence, rerun stages and a recommendation on every entry.

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
    const report = reviewMutated(() => {}, {
      goal: GOAL,
      iteration: 1,
      fileChecks: new Map([['docs', { exists: true }]]),
    });
    const byId = new Map(report.goal_evaluation.criteria.map((entry) => [entry.criterion_id, entry]));
    expect(byId.get('no-criticals')).toMatchObject({
      result: 'met',
      evidence: ['artifacts/stages/11-feedback-loop/feedback.json'],
    });
    expect(byId.get('docs')).toMatchObject({
      result: 'met',
      evidence: ['artifacts/stages/03-documentation/documentation.json'],
    });
    for (const id of ['lint', 'design-review', 'loop-metric'])
      expect(byId.get(id)).toMatchObject({ result: 'unknown', evidence: [] });
    const missing = reviewMutated(() => {}, { goal: GOAL, iteration: 1 });
    expect(missing.goal_evaluation.criteria.find((entry) => entry.criterion_id === 'docs')).toMatchObject({
      result: 'unknown',
      evidence: [],
    });
    for (const entry of report.goal_evaluation.criteria)
      expect(agentCriterionEntrySchema.safeParse(entry).success).toBe(true);
  });

  it('not_met includes 11-feedback-loop and the remediating stages in its rerun stages', () => {
    const report = reviewMutated(
      (run) => {
        list(run.test_report, 'test_cases').splice(1, 1);
      },
      { goal: NO_JUDGE, iteration: 2 },
    );
    const entry = report.goal_evaluation.criteria.find((candidate) => candidate.criterion_id === 'no-criticals');
    expect(entry).toMatchObject({
      result: 'not_met',
      recommendation: 'retry',
      recommended_rerun_stages: ['08-testing', '11-feedback-loop'],
      iteration: 2,
    });
    expect(report.goal_evaluation).toMatchObject({
      status: 'RETRY',
      critical_count: 1,
      failing_stages: ['08-testing'],
      recommended_rerun_stages: ['08-testing', '11-feedback-loop'],
      requires_human_decision: false,
    });
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
});
