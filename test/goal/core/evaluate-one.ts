import { type CriterionContext, evaluateCriterion } from '../../../src/goal/core/criteria.js';
import type { CriterionFact } from '../../../src/goal/core/facts.js';
import { FEEDBACK, goal, STAGES } from './fixtures.js';

/** The pipeline of the criterion tests, with its feedback stage. */
export const context: CriterionContext = { stages: STAGES, feedbackStage: FEEDBACK };

/** Evaluates one raw criterion against one fact. */
export function evaluate(
  raw: Record<string, unknown>,
  fact: CriterionFact | undefined,
  ctx: CriterionContext = context,
) {
  const criterion = goal([raw]).criteria[0];
  if (criterion === undefined) throw new Error('no criterion');
  return evaluateCriterion(criterion, fact, ctx);
}
