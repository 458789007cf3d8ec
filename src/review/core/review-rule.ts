// The shape of a review rule (severity, category, owner, effort, requirements) and the builder of its frozen rows.
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

/** Builds one frozen rule row of {@link ReviewRule}. */
export function rule<const I extends string>(
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
