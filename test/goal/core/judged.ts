import { evaluateGoal } from '../../../src/goal/core/evaluate.js';
import type { EvaluationFacts } from '../../../src/goal/core/facts.js';
import { evidence, facts, goal, JUDGE_FACT, judge } from './fixtures.js';

/** The rerun stages of the `design` judge criterion. */
export const ARCH = ['06-architecture', '11-feedback-loop'];
const oneJudge = goal([judge('design', ARCH)]);
/** A goal of two judge criteria, `design` and `security`. */
export const twoJudges = goal([judge('design', ARCH), judge('security', ['07-code'])]);
const GOOD = evidence(['artifacts/a.json', 'artifacts/b.json'], ['artifacts/bad.json']);

/** Facts for a judge goal inside a loop at iteration 2 (unless overridden). */
export function judged(overrides: Partial<EvaluationFacts> = {}): EvaluationFacts {
  return facts({
    goal: oneJudge,
    iteration: 2,
    criteria: { design: JUDGE_FACT, security: JUDGE_FACT },
    evidence: GOOD,
    ...overrides,
  });
}

/** The evaluated criterion `id` (default `design`) of the goal the facts describe. */
export const criterion = (facts_: EvaluationFacts, id = 'design') =>
  evaluateGoal(facts_).criteria.find((item) => item.id === id);
