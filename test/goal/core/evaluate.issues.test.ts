import { describe, expect, it } from 'vitest';
import { errorEvaluation, evaluateGoal } from '../../../src/goal/core/evaluate.js';
import { facts, feedback, fileExists, goal, verdicts } from './fixtures.js';

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
      'Goal docs-sweep is invalid: $.criteria[1].operator: Invalid option (and 1 more issue).',
    );
    expect(evaluation.issues).toHaveLength(2);
  });

  it('adds no full stop after an issue that ends its own sentence', () => {
    const misspelt = {
      code: 'unrecognized_keys',
      path: ['criteria', 1, 'rerun_stage'],
      message: 'unknown key `rerun_stage`; did you mean `rerun_stages`?',
    };
    expect(errorEvaluation('hello', [misspelt], null).reason).toBe(
      'Goal hello is invalid: $.criteria[1].rerun_stage: unknown key `rerun_stage`; did you mean `rerun_stages`?',
    );
  });

  it('still says something without issues', () => {
    expect(errorEvaluation('g', [], null).reason).toBe('Goal g could not be evaluated.');
  });
});
