import { describe, expect, it } from 'vitest';
import { DEFAULT_GOAL } from '../../../src/goal/contracts/goal.js';
import { evaluateGoal } from '../../../src/goal/core/evaluate.js';
import {
  command,
  facts,
  feedback,
  fileExists,
  goal,
  JUDGE_FACT,
  judge,
  metric,
  missingFile,
  ran,
  statuses,
} from './fixtures.js';

describe('evaluateGoal: status', () => {
  it('passes the default goal when every stage passed', () => {
    const evaluation = evaluateGoal(facts({ goal: DEFAULT_GOAL }));
    expect(evaluation).toMatchObject({
      goalId: 'pipeline-complete',
      status: 'PASS',
      score: 100,
      minScore: 100,
      recommendedRerunStages: [],
      failingStages: [],
      criticalCount: 0,
      iteration: null,
    });
    expect(evaluation.reason).toBe('Goal pipeline-complete is met: all 5 check(s) pass (score 100, min_score 100).');
  });

  it('is PASS with score 100 when there is nothing to check', () => {
    const evaluation = evaluateGoal(facts({ stages: [], stageStatuses: {} }));
    expect(evaluation).toMatchObject({ status: 'PASS', score: 100 });
    expect(evaluation.reason).toContain('no criteria and no stages');
  });

  it('names what decided a RETRY in one sentence', () => {
    const evaluation = evaluateGoal(
      facts({
        goal: goal([command('docs-lint', ['03-documentation'])]),
        criteria: { 'docs-lint': ran({ exitCode: 1 }) },
      }),
    );
    expect(evaluation.status).toBe('RETRY');
    expect(evaluation.reason).toBe(
      'Criterion docs-lint failed (exit code 1); rerun 03-documentation, 11-feedback-loop.',
    );
  });

  it('counts further findings in the reason', () => {
    const evaluation = evaluateGoal(
      facts({ goal: goal([fileExists('a'), fileExists('b')]), criteria: { a: missingFile, b: missingFile } }),
    );
    expect(evaluation.reason).toBe(
      'Criterion a failed (a.json is missing), plus 1 more finding(s); there is no stage to rerun.',
    );
  });

  it('is RETRY for a non-judge PENDING criterion', () => {
    expect(
      evaluateGoal(
        facts({
          goal: goal([metric('m')]),
          criteria: {
            m: {
              kind: 'metric_threshold',
              source: { state: 'present', document: { summary: { critical_count: null } } },
            },
          },
        }),
      ).status,
    ).toBe('RETRY');
  });

  it('is ASK_USER for a PENDING judge once nothing else decides', () => {
    const evaluation = evaluateGoal(
      facts({ goal: goal([judge('design')]), criteria: { design: JUDGE_FACT }, stageStatuses: statuses('passed') }),
    );
    expect(evaluation.status).toBe('ASK_USER');
    expect(evaluation.deferredJudges).toEqual([]);
    expect(evaluation.recommendedRerunStages).toEqual([]);
    expect(evaluation.reason).toBe(
      'Judge criterion design has no fresh verdict; a human must decide before the loop goes on.',
    );
  });

  it('defers a PENDING judge behind a blocked stage, and names why it waits', () => {
    const evaluation = evaluateGoal(
      facts({
        goal: goal([judge('design')]),
        criteria: { design: JUDGE_FACT },
        stageStatuses: { ...statuses('passed'), '07-code': 'blocked' },
      }),
    );
    expect(evaluation.status).toBe('BLOCK');
    expect(evaluation.deferredJudges).toEqual([
      { criterionId: 'design', reason: expect.stringMatching(/^not asked while the goal is blocked: Stage 07-code/) },
    ]);
  });

  it("is ASK_USER for a PENDING judge, even with a blocked stage, under askJudges 'first'", () => {
    const evaluation = evaluateGoal(
      facts({
        goal: goal([judge('design')]),
        criteria: { design: JUDGE_FACT },
        stageStatuses: { ...statuses('passed'), '07-code': 'blocked' },
      }),
      { askJudges: 'first' },
    );
    expect(evaluation.status).toBe('ASK_USER');
    expect(evaluation.recommendedRerunStages).toEqual([]);
    expect(evaluation.reason).toBe(
      'Judge criterion design has no fresh verdict; a human must decide before the loop goes on.',
    );
  });

  it('is ASK_USER for a stage awaiting a human', () => {
    expect(
      evaluateGoal(facts({ stageStatuses: { ...statuses('passed'), '06-architecture': 'awaiting_approval' } })).status,
    ).toBe('ASK_USER');
    expect(
      evaluateGoal(facts({ stageStatuses: { ...statuses('passed'), '06-architecture': 'needs_context' } })).status,
    ).toBe('ASK_USER');
  });

  it('is BLOCK for a blocked stage over a failed one', () => {
    const evaluation = evaluateGoal(
      facts({ stageStatuses: { ...statuses('passed'), '07-code': 'failed', '08-testing': 'blocked' } }),
    );
    expect(evaluation.status).toBe('BLOCK');
    expect(evaluation.failingStages).toEqual(['07-code', '08-testing']);
    expect(evaluation.reason).toBe('Stage 08-testing is blocked; the goal is blocked until a human intervenes.');
  });

  it('is BLOCK for a critical issue nobody can remediate', () => {
    const report = feedback({
      summary: { critical_count: 1 },
      issues: [{ id: 'FBK-9', severity: 'CRITICAL', remediation: { agent_to_rerun: null } }],
    });
    const evaluation = evaluateGoal(facts({ feedback: report }));
    expect(evaluation).toMatchObject({ status: 'BLOCK', criticalCount: 1 });
    expect(evaluation.reason).toContain('FBK-9');
  });

  it('is RETRY for a remediable critical issue, rerunning the mapped stage', () => {
    const report = feedback({
      summary: { critical_count: 1 },
      issues: [{ id: 'FBK-1', severity: 'CRITICAL', remediation: { agent_to_rerun: 'architecture_agent' } }],
    });
    expect(evaluateGoal(facts({ feedback: report }))).toMatchObject({
      status: 'RETRY',
      criticalCount: 1,
      recommendedRerunStages: ['06-architecture', '11-feedback-loop'],
    });
  });
});
