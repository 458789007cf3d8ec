// The review's rule table, concatenated in report order from the rows by analysis, and its lookups by id.
import type { ReviewRule } from './review-rule.js';
import { CAPACITY_RULES } from './rules-capacity.js';
import { COMPLIANCE_RULES } from './rules-compliance.js';
import { CONTRACT_RULES } from './rules-contracts.js';
import { TRACEABILITY_RULES } from './rules-traceability.js';

export type { IssueCategory, ReviewRule, Severity } from './review-rule.js';

/**
 * Every rule of the review, in report order: the one table of severities,
 * owners, efforts and maintenance categories.
 *
 * @public
 */
export const REVIEW_RULES = Object.freeze([
  ...TRACEABILITY_RULES,
  ...CAPACITY_RULES,
  ...COMPLIANCE_RULES,
  ...CONTRACT_RULES,
] as const);

/** The id of a review rule. @public */
export type ReviewRuleId = (typeof REVIEW_RULES)[number]['id'];

const RULES_BY_ID: ReadonlyMap<string, ReviewRule> = new Map(REVIEW_RULES.map((entry) => [entry.id, entry]));

/** The rule with this id. @public */
export function reviewRule(id: ReviewRuleId): ReviewRule {
  const found = RULES_BY_ID.get(id);
  if (found === undefined) throw new TypeError(`unknown review rule "${id}"`);
  return found;
}

const RULE_ORDER: ReadonlyMap<string, number> = new Map(REVIEW_RULES.map((entry, index) => [entry.id, index]));

/** The position of a rule in {@link REVIEW_RULES} (the report order). @public */
export function ruleOrder(id: string): number {
  return RULE_ORDER.get(id) ?? REVIEW_RULES.length;
}
