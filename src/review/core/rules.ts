// The review's rule table, one rule a row in report order, and its lookups by id.
import type { MaintenanceCategory } from '../../goal-shared.js';
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

/** One cross-reference rule of the review. @public */
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

type Row = readonly [
  string,
  IssueCategory,
  Severity,
  string,
  string,
  MaintenanceCategory,
  readonly ContractKey[],
  string,
];

// id, category, severity, owner, effort, maintenance, contracts needed, title
// biome-ignore format: a table reads best one rule a line
const ROWS = [
  ['contract.malformed', 'contract_availability', 'CRITICAL', 'self', '30 minutes', 'corrective', [], 'Stage contract is malformed'],
  ['contract.missing', 'contract_availability', 'WARNING', 'self', '1 hour', 'corrective', [], 'Stage contract is missing (agent may not have run)'],
  ['traceability.requirement_without_story', 'traceability', 'CRITICAL', '05-jira', '30 minutes', 'corrective', ['requirement_spec', 'jira_tickets'], 'Every functional requirement has a user story'],
  ['traceability.story_without_test', 'traceability', 'CRITICAL', '08-testing', '1 hour', 'corrective', ['jira_tickets', 'test_report'], 'Every user story has a test case'],
  ['traceability.requirement_without_test', 'traceability', 'CRITICAL', '08-testing', '1 hour', 'corrective', ['requirement_spec', 'test_report'], 'Every functional requirement has a test case'],
  ['traceability.requirement_without_code', 'traceability', 'WARNING', '07-code', '2 hours', 'corrective', ['requirement_spec', 'code_report'], 'Every functional requirement has code'],
  ['traceability.test_failed', 'traceability', 'WARNING', '07-code', '1 hour', 'corrective', ['test_report'], 'Every test case passes'],
  ['traceability.orphan_test', 'traceability', 'INFO', '08-testing', '15 minutes', 'perfective', ['requirement_spec', 'test_report'], 'Every test case maps to a requirement'],
  ['architecture.endpoint_without_code', 'architecture_code_sync', 'CRITICAL', '07-code', '2 hours', 'corrective', ['system_design', 'code_report'], 'Every designed API endpoint has a route in code'],
  ['architecture.table_without_migration', 'architecture_code_sync', 'CRITICAL', '07-code', '1 hour', 'corrective', ['system_design', 'code_report'], 'Every designed table has a migration in code'],
  ['architecture.service_without_code', 'architecture_code_sync', 'WARNING', '07-code', '4 hours', 'corrective', ['system_design', 'code_report'], 'Every designed service has code'],
  ['capacity.developer_overloaded', 'sprint_capacity', 'CRITICAL', '05-jira', '30 minutes', 'corrective', ['jira_tickets'], 'No developer has more than 15 points in a sprint'],
  ['capacity.blocker_scheduled_after', 'sprint_capacity', 'CRITICAL', '05-jira', '30 minutes', 'corrective', ['jira_tickets'], 'No story is scheduled before a story that blocks it'],
  ['capacity.developer_tight', 'sprint_capacity', 'WARNING', '05-jira', '15 minutes', 'corrective', ['jira_tickets'], 'No developer has more than 13 points in a sprint'],
  ['capacity.story_without_sprint', 'sprint_capacity', 'WARNING', '05-jira', '15 minutes', 'corrective', ['jira_tickets'], 'Every story is scheduled in a sprint'],
  ['capacity.sprint_outside_plan', 'sprint_capacity', 'WARNING', '05-jira', '15 minutes', 'corrective', ['jira_tickets', 'plan'], 'Every story sprint is a planned sprint'],
  ['capacity.sprint_underused', 'sprint_capacity', 'INFO', '04-planning', '15 minutes', 'perfective', ['jira_tickets', 'plan'], 'Every planned sprint uses at least half its capacity'],
  ['capacity.story_without_assignee', 'sprint_capacity', 'INFO', '05-jira', '15 minutes', 'preventive', ['jira_tickets'], 'Every story names its assignee'],
  ['security.nfr_without_control', 'security_compliance', 'CRITICAL', '06-architecture', '2 hours', 'corrective', ['requirement_spec', 'system_design'], 'Every security/compliance NFR has an architecture control'],
  ['security.nfr_without_test', 'security_compliance', 'CRITICAL', '08-testing', '1 hour', 'corrective', ['requirement_spec', 'test_report'], 'Every security/compliance NFR has a test case'],
  ['security.critical_threat_unmitigated', 'security_compliance', 'CRITICAL', '07-code', '4 hours', 'corrective', ['threat_model', 'code_report'], 'Every CRITICAL threat is mitigated in code'],
  ['security.high_threat_unmitigated', 'security_compliance', 'WARNING', '07-code', '2 hours', 'corrective', ['threat_model', 'code_report'], 'Every HIGH threat is mitigated in code'],
  ['security.control_untested', 'security_compliance', 'WARNING', '08-testing', '1 hour', 'corrective', ['system_design', 'test_report'], 'Every security control has a test case'],
  ['documentation.core_document_missing', 'documentation', 'WARNING', '03-documentation', '1 hour', 'preventive', ['documentation'], 'BRD, FRD and SOW exist'],
  ['documentation.frd_incomplete', 'documentation', 'WARNING', '03-documentation', '1 hour', 'preventive', ['documentation', 'requirement_spec'], 'The FRD covers every functional requirement'],
  ['documentation.design_document_missing', 'documentation', 'INFO', '03-documentation', '1 hour', 'preventive', ['documentation'], 'HLD and test plan are indexed'],
  ['references.dangling', 'cross_contract', 'WARNING', 'self', '30 minutes', 'corrective', [], 'Every referenced id exists in its source contract'],
  ['references.invalid_id', 'cross_contract', 'WARNING', 'self', '30 minutes', 'corrective', [], 'Every id matches its pattern (FR-nnn, NFR-nnn, US-nnn, TC-nnn, THR-nnn, SC-nnn)'],
  ['references.duplicate_id', 'cross_contract', 'WARNING', 'self', '30 minutes', 'corrective', [], 'Every id is defined once'],
  ['versions.version_mismatch', 'cross_contract', 'WARNING', 'self', '15 minutes', 'adaptive', [], 'Contract versions align'],
  ['versions.invalid_timestamp', 'cross_contract', 'WARNING', 'self', '15 minutes', 'corrective', [], 'Timestamps are valid ISO 8601'],
  ['versions.metadata_missing', 'cross_contract', 'INFO', 'self', '15 minutes', 'preventive', [], 'Contracts carry contract_version and timestamp'],
  ['versions.timestamp_gap', 'cross_contract', 'INFO', 'self', '15 minutes', 'preventive', [], 'No gap over one hour between sequential stages'],
  ['adoption.baseline_tests_not_executed', 'adoption', 'WARNING', '08-testing', '1 hour', 'preventive', ['test_report'], 'Adopted baseline tests have been executed'],
  ['remediation.unclassified', 'remediation', 'WARNING', 'self', '15 minutes', 'preventive', [], 'Every CRITICAL and WARNING finding has an owner, an effort and a maintenance category'],
] as const satisfies readonly Row[];

/** Every rule of the review, in report order: the one table of severities, owners, efforts and maintenance categories. @public */
export const REVIEW_RULES = Object.freeze(
  ROWS.map(
    ([id, category, severity, owner, effort, maintenance, requires, title]): ReviewRule & { readonly id: typeof id } =>
      Object.freeze({
        id,
        title,
        category,
        severity,
        owner,
        effort,
        maintenance,
        requires: Object.freeze([...requires]),
      }),
  ),
);

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
