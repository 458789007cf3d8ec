import { describe, expect, it } from 'vitest';
import { DEFAULT_GOAL } from '../../../src/goal/contracts/goal.js';
import { errorEvaluation, evaluateGoal } from '../../../src/goal/core/evaluate.js';
import type { CriterionFact } from '../../../src/goal/core/facts.js';
import {
  command,
  facts,
  feedback,
  fileExists,
  goal,
  JUDGE_FACT,
  judge,
  metric,
  present,
  ran,
  statuses,
  verdicts,
} from './fixtures.js';

const missingFile: CriterionFact = { kind: 'file_exists', path: { state: 'missing', path: 'x' } };

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

  it('is ASK_USER for a PENDING judge, even with a blocked stage', () => {
    const evaluation = evaluateGoal(
      facts({
        goal: goal([judge('design')]),
        criteria: { design: JUDGE_FACT },
        stageStatuses: { ...statuses('passed'), '07-code': 'blocked' },
      }),
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

describe('evaluateGoal: score', () => {
  // A goal of n file criteria, `passing` of which pass, with no stages.
  function scored(passing: number, total: number, minScore = 0): number {
    const ids = Array.from({ length: total }, (_, index) => `c${index}`);
    const criteria = Object.fromEntries(ids.map((id, index) => [id, index < passing ? present() : missingFile]));
    return evaluateGoal(
      facts({
        goal: goal(
          ids.map((id) => fileExists(id)),
          { min_score: minScore },
        ),
        stages: [],
        stageStatuses: {},
        criteria,
      }),
    ).score;
  }

  it.each([
    [1, 3, 33.3],
    [2, 3, 66.7],
    [1, 7, 14.3],
    [5, 6, 83.3],
    [0, 4, 0],
    [4, 4, 100],
    [1, 8, 12.5],
  ])('%d of %d passing is %d', (passing, total, score) => {
    expect(scored(passing, total)).toBe(score);
  });

  it('counts built-in checks with the criteria', () => {
    const evaluation = evaluateGoal(facts({ goal: goal([fileExists('a')]), criteria: { a: missingFile } }));
    expect(evaluation.score).toBe(83.3);
    expect(evaluation.builtins).toHaveLength(5);
  });
});

describe('evaluateGoal: rerun stages', () => {
  it('unions failing and pending criteria, failed and pending stages and critical issues, in pipeline order', () => {
    const evaluation = evaluateGoal(
      facts({
        goal: goal([
          fileExists('a', 'a', ['11-feedback-loop']),
          metric('m', { rerun_stages: ['08-testing'] }),
          fileExists('ok', 'ok', ['03-documentation']),
        ]),
        criteria: {
          a: missingFile,
          m: { kind: 'metric_threshold', source: { state: 'present', document: {} } },
          ok: present(),
        },
        stageStatuses: { ...statuses('passed'), '07-code': 'failed' },
        feedback: feedback({
          summary: { critical_count: 1 },
          issues: [{ severity: 'CRITICAL', remediation: { agent_to_rerun: '06-architecture' } }],
        }),
      }),
    );
    expect(evaluation.status).toBe('RETRY');
    expect(evaluation.recommendedRerunStages).toEqual(['06-architecture', '07-code', '08-testing', '11-feedback-loop']);
  });

  it('is empty unless the status is RETRY', () => {
    const evaluation = evaluateGoal(
      facts({
        goal: goal([fileExists('a', 'a', ['07-code'])]),
        criteria: { a: missingFile },
        stageStatuses: { ...statuses('passed'), '03-documentation': 'blocked' },
      }),
    );
    expect(evaluation.status).toBe('BLOCK');
    expect(evaluation.recommendedRerunStages).toEqual([]);
  });

  it('reruns the feedback stage after any stage upstream of it, so its report is not stale', () => {
    const evaluation = evaluateGoal(
      facts({ goal: goal([fileExists('a', 'a', ['07-code'])]), criteria: { a: missingFile } }),
    );
    expect(evaluation.recommendedRerunStages).toEqual(['07-code', '11-feedback-loop']);
    const withoutFeedback = evaluateGoal(
      facts({
        goal: goal([fileExists('a', 'a', ['07-code'])]),
        criteria: { a: missingFile },
        stages: ['07-code'],
        stageStatuses: { '07-code': 'passed' },
      }),
    );
    expect(withoutFeedback.recommendedRerunStages).toEqual(['07-code']);
  });

  it('drops rerun stages outside the pipeline with an issue', () => {
    const unchecked = goal([fileExists('a', 'a', ['99-ghost', '07-code'])]);
    const evaluation = evaluateGoal(facts({ goal: unchecked, criteria: { a: missingFile } }));
    expect(evaluation.recommendedRerunStages).toEqual(['07-code', '11-feedback-loop']);
    expect(evaluation.issues).toContainEqual({
      code: 'unknown_stage',
      path: ['criteria', 0, 'rerun_stages', 0],
      message: expect.stringContaining('99-ghost'),
    });
  });
});

describe('evaluateGoal: facts and issues', () => {
  it('reads criterion facts as own properties (an id like constructor is not a fact)', () => {
    const evaluation = evaluateGoal(facts({ goal: goal([fileExists('constructor')]), criteria: {} }));
    expect(evaluation.criteria[0]).toMatchObject({ status: 'PENDING', summary: 'not evaluated' });
  });

  it('reports goal-verdict.json and feedback.json issues', () => {
    const fromVerdicts = evaluateGoal(facts({ explicitVerdicts: verdicts([{ verdict: 'MAYBE' }]) }));
    expect(fromVerdicts.issues[0]).toMatchObject({
      path: [0, 'verdict'],
      message: expect.stringMatching(/^goal-verdict\.json: /),
    });
    const fromFeedback = evaluateGoal(facts({ feedback: feedback([]) }));
    expect(fromFeedback.issues[0]?.message).toMatch(/^feedback\.json: /);
    expect(fromFeedback.status).toBe('RETRY');
    expect(fromFeedback.recommendedRerunStages).toEqual(['11-feedback-loop']);
  });

  it('keeps the iteration', () => {
    expect(evaluateGoal(facts({ iteration: 4 })).iteration).toBe(4);
  });
});

describe('errorEvaluation', () => {
  it('is an ERROR naming the first issue', () => {
    const evaluation = errorEvaluation(
      'docs-sweep',
      [
        { code: 'invalid_value', path: ['criteria', 1, 'operator'], message: 'Invalid option' },
        { code: 'duplicate_id', path: ['criteria', 2, 'id'], message: 'duplicate' },
      ],
      3,
    );
    expect(evaluation).toMatchObject({
      goalId: 'docs-sweep',
      status: 'ERROR',
      score: 0,
      iteration: 3,
      recommendedRerunStages: [],
      criteria: [],
      builtins: [],
    });
    expect(evaluation.reason).toBe(
      'Goal docs-sweep is invalid: $.criteria[1].operator: Invalid option (and 1 more issue(s)).',
    );
    expect(evaluation.issues).toHaveLength(2);
  });

  it('still says something without issues', () => {
    expect(errorEvaluation('g', [], null).reason).toBe('Goal g could not be evaluated.');
  });
});
