import { describe, expect, it } from 'vitest';
import { evaluateGoal } from '../../../src/goal/core/evaluate.js';
import { facts, goal, JUDGE_FACT, judge, verdicts } from './fixtures.js';

// Time of parsing and resolving `count` verdicts spread over `criteria` judge criteria (best of three).
// Verdicts of odd-numbered criteria are fresh; those of even-numbered ones are all stale, so those stay pending.
function timeVerdicts(count: number, criteria: number): number {
  const content = Array.from({ length: count }, (_, index) => ({
    criterion_id: `judge-${index % criteria}`,
    verdict: index % 2 === 0 ? 'FAIL' : 'PASS',
    iteration: (index % criteria) % 2 === 0 && criteria > 1 ? 1 : 2,
  }));
  const judges = Array.from({ length: criteria }, (_, index) => judge(`judge-${index}`));
  const input = {
    goal: goal(judges),
    iteration: 2,
    criteria: Object.fromEntries(judges.map((item) => [String(item.id), JUDGE_FACT])),
  };
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 3; round += 1) {
    const start = performance.now();
    const evaluation = evaluateGoal(facts({ ...input, explicitVerdicts: verdicts(content) }));
    best = Math.min(best, performance.now() - start);
    expect(evaluation.claims.consumed).toHaveLength(Math.ceil(criteria / 2));
  }
  return best;
}

describe('goal-verdict.json growth', () => {
  it('10× the verdicts for one criterion take about 10× the time, not 100×', () => {
    timeVerdicts(2_000, 1);
    const small = timeVerdicts(10_000, 1);
    const large = timeVerdicts(100_000, 1);
    expect(large / small).toBeLessThan(30);
  }, 60_000);

  it('stale verdicts for many pending judges stay linear too', () => {
    timeVerdicts(2_000, 200);
    const small = timeVerdicts(5_000, 500);
    const large = timeVerdicts(50_000, 5_000);
    expect(large / small).toBeLessThan(30);
  }, 60_000);
});
