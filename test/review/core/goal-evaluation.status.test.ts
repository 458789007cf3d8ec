import { describe, expect, it } from 'vitest';
import type { Criterion, Goal } from '../../../src/goal/contracts/goal.js';
import { evaluateCriterion } from '../../../src/goal/core/criteria.js';
import { SDLC_STAGES } from '../../../src/pipeline/stage-presets.js';
import type { FeedbackReportBody } from '../../../src/review/contracts/feedback-report.js';
import { authorGoalEvaluation } from '../../../src/review/core/goal-evaluation.js';
import { GOAL, list, NO_JUDGE, reviewMutated } from '../fixtures.js';

// The status of the goal_evaluation section, ranked as the loop's core ranks it, and a feedback metric read as the
// core reads it.

// Authors goal_evaluation for `goal` over a report (by default the clean run's, without its goal_evaluation).
function author(goal: Goal, report: FeedbackReportBody = reviewMutated(() => {})) {
  return authorGoalEvaluation({
    goal,
    goalIssues: [],
    iteration: 1,
    fileChecks: new Map(),
    feedbackPath: 'feedback.json',
    report,
    blockedStages: [],
    stages: SDLC_STAGES,
    feedbackStage: '11-feedback-loop',
  });
}

describe('goal_evaluation authoring', () => {
  it('asks a human when only judge criteria remain open, or when goal.json is invalid', () => {
    const report = reviewMutated(() => {}, { goal: GOAL, iteration: 1 });
    expect(report.goal_evaluation).toMatchObject({
      status: 'ASK_USER',
      requires_human_decision: true,
      recommended_rerun_stages: [],
    });
    const invalid = reviewMutated(() => {}, {
      goal: null,
      goalIssues: [{ code: 'invalid_type', path: ['criteria'], message: 'x' }],
    });
    expect(invalid.goal_evaluation).toMatchObject({ status: 'ASK_USER', criteria: [] });
    expect(invalid.goal_evaluation.reason).toContain('goal.json is invalid');
  });

  it('reads a feedback metric exactly as the loop does: met, not_met or unknown where the core says PASS, FAIL or PENDING', () => {
    const clean = reviewMutated(() => {});
    const report = {
      ...clean,
      summary: { ...clean.summary, hex: '0x10', padded: ' 4 ', inf: 'Infinity', none: null },
    } as unknown as FeedbackReportBody;
    const cases: [string, number][] = [
      ['issues.length', 0],
      ['summary.hex', 16],
      ['summary.padded', 4],
      ['summary.inf', 0],
      ['summary.none', 0],
      ['summary.critical_count', 0],
      ['summary.critical_count', 1],
      ['summary.missing', 0],
      ['summary..critical_count', 0],
    ];
    const outcomes = cases.map(([metric, value]) => {
      const criterion = {
        id: 'm',
        kind: 'metric_threshold',
        source: 'feedback',
        metric,
        operator: '==',
        value,
        rerun_stages: [],
      } as Criterion;
      const core = evaluateCriterion(
        criterion,
        { kind: 'metric_threshold', source: { state: 'present', document: report } },
        { stages: SDLC_STAGES, feedbackStage: '11-feedback-loop' },
      ).status;
      const review = author({ ...GOAL, criteria: [criterion] }, report).criteria[0]?.result;
      return [metric, value, review, core];
    });
    const AS_CORE = { met: 'PASS', not_met: 'FAIL', unknown: 'PENDING' } as const;
    for (const [metric, value, review, core] of outcomes)
      expect([metric, value, AS_CORE[review as keyof typeof AS_CORE]]).toEqual([metric, value, core]);
    expect(outcomes.map((outcome) => outcome[2])).toEqual([
      'met',
      'unknown',
      'met',
      'unknown',
      'unknown',
      'met',
      'not_met',
      'unknown',
      'unknown',
    ]);
  });

  it('ranks statuses by the core precedence: a rerun (RETRY) before an open judge (ASK_USER), an unremediable CRITICAL is BLOCK', () => {
    const withGap = reviewMutated((run) => {
      list(run.test_report, 'test_cases').splice(1, 1);
    });
    expect(author(NO_JUDGE, withGap)).toMatchObject({
      status: 'RETRY',
      recommended_rerun_stages: ['08-testing', '11-feedback-loop'],
    });
    const judged = author(GOAL, withGap);
    expect(judged).toMatchObject({
      status: 'RETRY',
      requires_human_decision: false,
      recommended_rerun_stages: ['08-testing', '11-feedback-loop'],
    });
    expect(judged.reason).toMatch(/Judge \S+ is asked once nothing else is rerun\.$/);
    const clean = author(
      GOAL,
      reviewMutated(() => undefined),
    );
    expect(clean).toMatchObject({ status: 'ASK_USER', requires_human_decision: true, recommended_rerun_stages: [] });
    expect(clean.reason).toBe('1 judge criterion needs a host or human verdict.');
    const orphan = {
      ...withGap,
      issues: withGap.issues.map((issue) => ({
        ...issue,
        remediation: { ...issue.remediation, agent_to_rerun: null },
      })),
    };
    const blocked = author(NO_JUDGE, orphan);
    expect(blocked).toMatchObject({ status: 'BLOCK', requires_human_decision: true, recommended_rerun_stages: [] });
    expect(blocked.reason).toContain('FBK-001');
    expect(author(GOAL, orphan).status).toBe('BLOCK');
  });
});
