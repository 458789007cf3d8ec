import { describe, expect, it } from 'vitest';
import type { Criterion, Goal } from '../../../src/goal/contracts/goal.js';
import { agentCriterionEntrySchema } from '../../../src/goal/contracts/goal-evaluation.js';
import { parseGoalStructure as parseGoal } from '../../../src/goal/contracts/parse-goal.js';
import { evaluateCriterion } from '../../../src/goal/core/criteria.js';
import { SDLC_STAGES } from '../../../src/pipeline/stage-presets.js';
import type { FeedbackReportBody } from '../../../src/review/contracts/feedback-report.js';
import { authorGoalEvaluation } from '../../../src/review/core/goal-evaluation.js';
import { list, reviewMutated } from '../fixtures.js';

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
const NO_JUDGE = { ...GOAL, criteria: GOAL.criteria.filter((criterion) => criterion.kind !== 'judge') };

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

  it('ranks statuses by the core precedence: an open judge (ASK_USER) outranks a rerun (RETRY), an unremediable CRITICAL is BLOCK', () => {
    const withGap = reviewMutated((run) => {
      list(run.test_report, 'test_cases').splice(1, 1);
    });
    expect(author(NO_JUDGE, withGap)).toMatchObject({
      status: 'RETRY',
      recommended_rerun_stages: ['08-testing', '11-feedback-loop'],
    });
    const judged = author(GOAL, withGap);
    expect(judged).toMatchObject({ status: 'ASK_USER', requires_human_decision: true, recommended_rerun_stages: [] });
    expect(judged.reason).toBe('1 judge criterion needs a host or human verdict.');
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
    expect(author(GOAL, orphan).status).toBe('ASK_USER');
  });
});
