import { describe, expect, it } from 'vitest';
import { evaluateGoal } from '../../../src/goal/core/evaluate.js';
import { facts, fileExists, goal, missingFile, present } from './fixtures.js';

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
