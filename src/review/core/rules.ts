import type { MaintenanceCategory } from '../../index.js';
import type { ContractKey } from './contract-slots.js';

/** The severity of a finding. @public */
export type Severity = 'CRITICAL' | 'WARNING' | 'INFO';

/** The categories of findings in feedback.json. @public */
export type IssueCategory =
  | 'contract_availability'
  | 'traceability'
  | 'architecture_code_sync'
  | 'sprint_capacity'
  | 'security_compliance'
  | 'documentation'
  | 'cross_contract'
  | 'remediation'
  | 'adoption';

/**
 * One cross-reference rule of the review: its severity, category, the stage
 * that owns a remediation (`'self'`: the stage whose contract is concerned),
 * an effort estimate, a maintenance category, and the contracts it needs
 * (without them it is skipped, not failed).
 *
 * @public
 */
export interface ReviewRule {
  readonly id: string;
  readonly title: string;
  readonly category: IssueCategory;
  readonly severity: Severity;
  readonly owner: string;
  readonly effort: string;
  readonly maintenance: MaintenanceCategory;
  readonly requires: readonly ContractKey[];
}

// Builds one frozen rule row.
function rule<const I extends string>(
  id: I,
  title: string,
  category: IssueCategory,
  severity: Severity,
  owner: string,
  effort: string,
  maintenance: MaintenanceCategory,
  requires: readonly ContractKey[],
): ReviewRule & { readonly id: I } {
  return Object.freeze({
    id,
    title,
    category,
    severity,
    owner,
    effort,
    maintenance,
    requires: Object.freeze([...requires]),
  });
}

/**
 * Every rule of the review, in report order: the one table of severities,
 * owners, efforts and maintenance categories.
 *
 * @public
 */
export const REVIEW_RULES = Object.freeze([
  rule(
    'contract.malformed',
    'Stage contract is malformed',
    'contract_availability',
    'CRITICAL',
    'self',
    '30 minutes',
    'corrective',
    [],
  ),
  rule(
    'contract.missing',
    'Stage contract is missing (agent may not have run)',
    'contract_availability',
    'WARNING',
    'self',
    '1 hour',
    'corrective',
    [],
  ),
  rule(
    'traceability.requirement_without_story',
    'Every functional requirement has a user story',
    'traceability',
    'CRITICAL',
    '05-jira',
    '30 minutes',
    'corrective',
    ['requirement_spec', 'jira_tickets'],
  ),
  rule(
    'traceability.story_without_test',
    'Every user story has a test case',
    'traceability',
    'CRITICAL',
    '08-testing',
    '1 hour',
    'corrective',
    ['jira_tickets', 'test_report'],
  ),
  rule(
    'traceability.requirement_without_test',
    'Every functional requirement has a test case',
    'traceability',
    'CRITICAL',
    '08-testing',
    '1 hour',
    'corrective',
    ['requirement_spec', 'test_report'],
  ),
  rule(
    'traceability.requirement_without_code',
    'Every functional requirement has code',
    'traceability',
    'WARNING',
    '07-code',
    '2 hours',
    'corrective',
    ['requirement_spec', 'code_report'],
  ),
  rule(
    'traceability.test_failed',
    'Every test case passes',
    'traceability',
    'WARNING',
    '07-code',
    '1 hour',
    'corrective',
    ['test_report'],
  ),
  rule(
    'traceability.orphan_test',
    'Every test case maps to a requirement',
    'traceability',
    'INFO',
    '08-testing',
    '15 minutes',
    'perfective',
    ['requirement_spec', 'test_report'],
  ),
  rule(
    'architecture.endpoint_without_code',
    'Every designed API endpoint has a route in code',
    'architecture_code_sync',
    'CRITICAL',
    '07-code',
    '2 hours',
    'corrective',
    ['system_design', 'code_report'],
  ),
  rule(
    'architecture.table_without_migration',
    'Every designed table has a migration in code',
    'architecture_code_sync',
    'CRITICAL',
    '07-code',
    '1 hour',
    'corrective',
    ['system_design', 'code_report'],
  ),
  rule(
    'architecture.service_without_code',
    'Every designed service has code',
    'architecture_code_sync',
    'WARNING',
    '07-code',
    '4 hours',
    'corrective',
    ['system_design', 'code_report'],
  ),
  rule(
    'capacity.developer_overloaded',
    'No developer has more than 15 points in a sprint',
    'sprint_capacity',
    'CRITICAL',
    '05-jira',
    '30 minutes',
    'corrective',
    ['jira_tickets'],
  ),
  rule(
    'capacity.blocker_scheduled_after',
    'No story is scheduled before a story that blocks it',
    'sprint_capacity',
    'CRITICAL',
    '05-jira',
    '30 minutes',
    'corrective',
    ['jira_tickets'],
  ),
  rule(
    'capacity.developer_tight',
    'No developer has more than 13 points in a sprint',
    'sprint_capacity',
    'WARNING',
    '05-jira',
    '15 minutes',
    'corrective',
    ['jira_tickets'],
  ),
  rule(
    'capacity.story_without_sprint',
    'Every story is scheduled in a sprint',
    'sprint_capacity',
    'WARNING',
    '05-jira',
    '15 minutes',
    'corrective',
    ['jira_tickets'],
  ),
  rule(
    'capacity.sprint_outside_plan',
    'Every story sprint is a planned sprint',
    'sprint_capacity',
    'WARNING',
    '05-jira',
    '15 minutes',
    'corrective',
    ['jira_tickets', 'plan'],
  ),
  rule(
    'capacity.sprint_underused',
    'Every planned sprint uses at least half its capacity',
    'sprint_capacity',
    'INFO',
    '04-planning',
    '15 minutes',
    'perfective',
    ['jira_tickets', 'plan'],
  ),
  rule(
    'capacity.story_without_assignee',
    'Every story names its assignee',
    'sprint_capacity',
    'INFO',
    '05-jira',
    '15 minutes',
    'preventive',
    ['jira_tickets'],
  ),
  rule(
    'security.nfr_without_control',
    'Every security/compliance NFR has an architecture control',
    'security_compliance',
    'CRITICAL',
    '06-architecture',
    '2 hours',
    'corrective',
    ['requirement_spec', 'system_design'],
  ),
  rule(
    'security.nfr_without_test',
    'Every security/compliance NFR has a test case',
    'security_compliance',
    'CRITICAL',
    '08-testing',
    '1 hour',
    'corrective',
    ['requirement_spec', 'test_report'],
  ),
  rule(
    'security.critical_threat_unmitigated',
    'Every CRITICAL threat is mitigated in code',
    'security_compliance',
    'CRITICAL',
    '07-code',
    '4 hours',
    'corrective',
    ['threat_model', 'code_report'],
  ),
  rule(
    'security.high_threat_unmitigated',
    'Every HIGH threat is mitigated in code',
    'security_compliance',
    'WARNING',
    '07-code',
    '2 hours',
    'corrective',
    ['threat_model', 'code_report'],
  ),
  rule(
    'security.control_untested',
    'Every security control has a test case',
    'security_compliance',
    'WARNING',
    '08-testing',
    '1 hour',
    'corrective',
    ['system_design', 'test_report'],
  ),
  rule(
    'documentation.core_document_missing',
    'BRD, FRD and SOW exist',
    'documentation',
    'WARNING',
    '03-documentation',
    '1 hour',
    'preventive',
    ['documentation'],
  ),
  rule(
    'documentation.frd_incomplete',
    'The FRD covers every functional requirement',
    'documentation',
    'WARNING',
    '03-documentation',
    '1 hour',
    'preventive',
    ['documentation', 'requirement_spec'],
  ),
  rule(
    'documentation.design_document_missing',
    'HLD and test plan are indexed',
    'documentation',
    'INFO',
    '03-documentation',
    '1 hour',
    'preventive',
    ['documentation'],
  ),
  rule(
    'references.dangling',
    'Every referenced id exists in its source contract',
    'cross_contract',
    'WARNING',
    'self',
    '30 minutes',
    'corrective',
    [],
  ),
  rule(
    'references.invalid_id',
    'Every id matches its pattern (FR-nnn, NFR-nnn, US-nnn, TC-nnn, THR-nnn, SC-nnn)',
    'cross_contract',
    'WARNING',
    'self',
    '30 minutes',
    'corrective',
    [],
  ),
  rule(
    'references.duplicate_id',
    'Every id is defined once',
    'cross_contract',
    'WARNING',
    'self',
    '30 minutes',
    'corrective',
    [],
  ),
  rule(
    'versions.version_mismatch',
    'Contract versions align',
    'cross_contract',
    'WARNING',
    'self',
    '15 minutes',
    'adaptive',
    [],
  ),
  rule(
    'versions.invalid_timestamp',
    'Timestamps are valid ISO 8601',
    'cross_contract',
    'WARNING',
    'self',
    '15 minutes',
    'corrective',
    [],
  ),
  rule(
    'versions.metadata_missing',
    'Contracts carry contract_version and timestamp',
    'cross_contract',
    'INFO',
    'self',
    '15 minutes',
    'preventive',
    [],
  ),
  rule(
    'versions.timestamp_gap',
    'No gap over one hour between sequential stages',
    'cross_contract',
    'INFO',
    'self',
    '15 minutes',
    'preventive',
    [],
  ),
  rule(
    'adoption.baseline_tests_not_executed',
    'Adopted baseline tests have been executed',
    'adoption',
    'WARNING',
    '08-testing',
    '1 hour',
    'preventive',
    ['test_report'],
  ),
  // Holds by construction (every row names an owner, an effort and a category; test/review/analyses/remediation.test.ts): listed as a validation.json check, never emitted.
  rule(
    'remediation.unclassified',
    'Every CRITICAL and WARNING finding has an owner, an effort and a maintenance category',
    'remediation',
    'WARNING',
    'self',
    '15 minutes',
    'preventive',
    [],
  ),
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
