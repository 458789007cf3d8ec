// The id patterns of the review's contracts (FR-nnn, NFR-nnn, US-nnn, TC-nnn, THR-nnn, SC-nnn) and the findings of ids that fail them.
import { isTestLevel } from '../contracts/test-report.js';
import type { ContractKey } from '../core/contract-slots.js';
import { type Finding, findingAt, listIds } from '../core/finding.js';
import type { ReviewModel } from '../core/model.js';

/** The id patterns: FR-nnn, NFR-nnn, US-nnn, TC-nnn, THR-nnn, SC-nnn. @public */
export const ID_PATTERNS = Object.freeze({
  functional: /^FR-\d{3,}$/,
  non_functional: /^NFR-\d{3,}$/,
  story: /^US-\d{3,}$/,
  test: /^TC-\d{3,}$/,
  threat: /^THR-\d{3,}$/,
  control: /^SC-\d{3,}$/,
});

// The distinct ids of `items` that fail `pattern`, in first-seen order; `idOf` is null for items outside the group.
function invalidIds<T>(items: readonly T[], idOf: (item: T) => string | null, pattern: RegExp): string[] {
  const invalid = new Set<string>();
  for (let index = 0; index < items.length; index++) {
    const id = idOf(items[index] as T);
    if (id !== null && !pattern.test(id)) invalid.add(id);
  }
  return [...invalid];
}

/** Ids that do not match their pattern (`references.invalid_id`), one finding per contract and pattern. */
export function invalidIdFindings(model: ReviewModel): Finding[] {
  const {
    requirement_spec: spec,
    jira_tickets: jira,
    test_report: tests,
    threat_model: threats,
    system_design: design,
  } = model.contracts;
  const requirements = spec?.requirements ?? [];
  const groups: { key: ContractKey; label: string; invalid: string[]; harvested: boolean }[] = [
    {
      key: 'requirement_spec',
      label: 'FR-nnn',
      invalid: invalidIds(requirements, (r) => (r.type === 'functional' ? r.id : null), ID_PATTERNS.functional),
      harvested: spec?.meta.harvested ?? false,
    },
    {
      key: 'requirement_spec',
      label: 'NFR-nnn',
      invalid: invalidIds(requirements, (r) => (r.type === 'non_functional' ? r.id : null), ID_PATTERNS.non_functional),
      harvested: spec?.meta.harvested ?? false,
    },
    {
      key: 'jira_tickets',
      label: 'US-nnn',
      invalid: invalidIds(jira?.stories ?? [], (story) => story.id, ID_PATTERNS.story),
      harvested: jira?.meta.harvested ?? false,
    },
    {
      key: 'test_report',
      label: 'TC-nnn',
      invalid: invalidIds(tests?.tests ?? [], (test) => (isTestLevel(test) ? null : test.id), ID_PATTERNS.test),
      harvested: tests?.meta.harvested ?? false,
    },
    {
      key: 'threat_model',
      label: 'THR-nnn',
      invalid: invalidIds(threats?.threats ?? [], (threat) => threat.id, ID_PATTERNS.threat),
      harvested: threats?.meta.harvested ?? false,
    },
    {
      key: 'system_design',
      label: 'SC-nnn',
      invalid: invalidIds(design?.controls ?? [], (control) => control.id, ID_PATTERNS.control),
      harvested: design?.meta.harvested ?? false,
    },
  ];
  const findings: Finding[] = [];
  for (const { invalid, ...group } of groups) {
    if (invalid.length === 0) continue;
    findings.push(
      findingAt(model, group.key, {
        rule: 'references.invalid_id',
        title: `${invalid.length} id${invalid.length === 1 ? '' : 's'} in ${group.key} do not match ${group.label}`,
        description: `${listIds(invalid)} in ${group.key} do not match the pattern ${group.label}, so other contracts cannot reference them reliably.`,
        ids: invalid,
        action: `Renumber ${listIds(invalid, 3)} to the ${group.label} pattern and update every reference.`,
        baseline: group.harvested,
      }),
    );
  }
  return findings;
}
