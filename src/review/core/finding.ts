import type { ContractKey } from './contract-slots.js';
import { contractStatus, type ReviewModel } from './model.js';
import type { ReviewRuleId } from './rules.js';

/**
 * One finding of an analysis, before ids, severities and remediations are finalized: the rule it breaks, the stage
 * whose contract shows the problem, the artifacts and ids it concerns, and the remediation action. @public
 */
export interface Finding {
  readonly rule: ReviewRuleId;
  /** The stage whose contract shows the problem (`source_agent`). */
  readonly stage: string;
  readonly title: string;
  readonly description: string;
  /** Affected artifact paths, relative to the run directory. */
  readonly artifacts: readonly string[];
  /** The ids the finding is about. */
  readonly ids: readonly string[];
  /** The file, service or stage artifact it points at (bug-swarm grouping); defaults to the first artifact. */
  readonly module?: string;
  /** The finding concerns harvested baseline items of an adopted run. */
  readonly baseline?: boolean;
  readonly action: string;
  /** Overrides the rule's owning stage (`null`: nobody can rerun for it). */
  readonly owner?: string | null;
  /** What to read before changing anything. */
  readonly readFirst?: readonly string[];
}

/** The fields every analysis fills in when it reports against one contract. @public */
export interface FindingAt {
  readonly rule: ReviewRuleId;
  readonly title: string;
  readonly description: string;
  readonly ids?: readonly string[];
  readonly action: string;
  readonly module?: string;
  readonly baseline?: boolean;
  readonly extraArtifacts?: readonly string[];
}

/** Builds a finding located on the contract of `key` (its stage and the path it was read from). @internal */
export function findingAt(model: ReviewModel, key: ContractKey, fields: FindingAt): Finding {
  const status = contractStatus(model, key);
  const artifacts = [status.path, ...(fields.extraArtifacts ?? [])];
  const finding: Finding = {
    rule: fields.rule,
    stage: status.stage,
    title: fields.title,
    description: fields.description,
    artifacts,
    ids: fields.ids ?? [],
    action: fields.action,
    ...(fields.module === undefined ? {} : { module: fields.module }),
    ...(fields.baseline === true ? { baseline: true } : {}),
  };
  return finding;
}

/** Formats a short list of ids for a sentence: `FR-001, FR-002 and 3 more`. @internal */
export function listIds(ids: readonly string[], max = 8): string {
  if (ids.length <= max) return ids.join(', ');
  return `${ids.slice(0, max).join(', ')} and ${ids.length - max} more`;
}
