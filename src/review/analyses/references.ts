import type { ContractKey } from '../contract-slots.js';
import { type Finding, findingAt, listIds } from '../finding.js';
import type { ReviewModel } from '../model.js';

/** The id patterns of SPEC §6: FR-nnn, NFR-nnn, US-nnn, TC-nnn, THR-nnn, SC-nnn. @public */
export const ID_PATTERNS = Object.freeze({
  functional: /^FR-\d{3,}$/,
  non_functional: /^NFR-\d{3,}$/,
  story: /^US-\d{3,}$/,
  test: /^TC-\d{3,}$/,
  threat: /^THR-\d{3,}$/,
  control: /^SC-\d{3,}$/,
});

type Target = 'requirement' | 'story' | 'test' | 'threat' | 'control' | 'requirement_or_story';

// One kind of reference: the contract holding it, the field, the target kind and the ids.
interface ReferenceGroup {
  readonly from: ContractKey;
  readonly field: string;
  readonly target: Target;
  readonly ids: readonly string[];
}

// Every explicit reference of the run, grouped by contract and field.
function referenceGroups(model: ReviewModel): ReferenceGroup[] {
  const { jira_tickets: jira, code_report: code, deployment_report: deployment, documentation, system_design: design } = model.contracts;
  const stories = jira?.stories ?? [];
  const files = code?.files ?? [];
  return [
    { from: 'jira_tickets', field: 'linked_requirements', target: 'requirement', ids: stories.flatMap((story) => story.requirementIds) },
    { from: 'jira_tickets', field: 'blocked_by', target: 'story', ids: stories.flatMap((story) => story.blockedBy) },
    { from: 'system_design', field: 'security_controls.nfr_ids', target: 'requirement', ids: (design?.controls ?? []).flatMap((control) => control.nfrIds) },
    { from: 'code_report', field: 'implements', target: 'requirement_or_story', ids: files.flatMap((file) => file.implements) },
    { from: 'code_report', field: 'mitigates', target: 'threat', ids: files.flatMap((file) => file.mitigates) },
    { from: 'test_report', field: 'story_ids', target: 'story', ids: model.tests.flatMap((test) => test.storyIds) },
    { from: 'test_report', field: 'requirement_ids', target: 'requirement', ids: model.tests.flatMap((test) => test.requirementIds) },
    { from: 'test_report', field: 'controls', target: 'control', ids: model.tests.flatMap((test) => test.controls) },
    { from: 'deployment_report', field: 'deployed_stories', target: 'requirement_or_story', ids: deployment?.deployedStories ?? [] },
    { from: 'documentation', field: 'covers', target: 'requirement_or_story', ids: (documentation?.documents ?? []).flatMap((document) => document.covers ?? []) },
  ];
}

// Whether an id of a target kind resolves: true, false (dangling) or null (its source contract was not read).
function resolves(model: ReviewModel, target: Target, id: string): boolean | null {
  const { requirement_spec: spec, jira_tickets: jira, test_report: tests, threat_model: threats, system_design: design } = model.contracts;
  switch (target) {
    case 'requirement':
      return spec === null ? null : model.requirements.has(id);
    case 'story':
      return jira === null ? null : model.stories.has(id);
    case 'test':
      return tests === null ? null : model.tests.some((test) => test.id === id);
    case 'threat':
      return threats === null ? null : threats.threats.some((threat) => threat.id === id);
    case 'control':
      return design === null ? null : design.controls.some((control) => control.id === id);
    case 'requirement_or_story': {
      if (model.requirements.has(id) || model.stories.has(id)) return true;
      if (/^US-/.test(id)) return jira === null ? null : false;
      if (/^N?FR-/.test(id)) return spec === null ? null : false;
      return spec === null && jira === null ? null : false;
    }
  }
}

// Dangling references, one finding per contract field listing the unknown ids.
function danglingFindings(model: ReviewModel): Finding[] {
  const findings: Finding[] = [];
  for (const group of referenceGroups(model)) {
    if (model.contracts[group.from] === null) continue;
    const dangling = [...new Set(group.ids.filter((id) => resolves(model, group.target, id) === false))];
    if (dangling.length === 0) continue;
    const target = group.target.replace('_or_', ' or ');
    findings.push(findingAt(model, group.from, { rule: 'references.dangling', title: `${group.from}.${group.field} references ${dangling.length} unknown ${target} id${dangling.length === 1 ? '' : 's'}`, description: `${group.field} in ${group.from} references ${listIds(dangling)}, defined in no contract (a different id format, a renamed or a deleted ${target}).`, ids: dangling, action: `Correct the ids in ${group.field} to ids that exist, or define them in their source contract.`, baseline: model.contracts[group.from]?.meta.harvested ?? false }));
  }
  return findings;
}

// Ids that do not match their pattern, one finding per contract and pattern.
function invalidIdFindings(model: ReviewModel): Finding[] {
  const { requirement_spec: spec, jira_tickets: jira, test_report: tests, threat_model: threats, system_design: design } = model.contracts;
  const groups: { key: ContractKey; pattern: RegExp; label: string; ids: string[]; harvested: boolean }[] = [
    { key: 'requirement_spec', pattern: ID_PATTERNS.functional, label: 'FR-nnn', ids: (spec?.requirements ?? []).filter((r) => r.type === 'functional').map((r) => r.id), harvested: spec?.meta.harvested ?? false },
    { key: 'requirement_spec', pattern: ID_PATTERNS.non_functional, label: 'NFR-nnn', ids: (spec?.requirements ?? []).filter((r) => r.type === 'non_functional').map((r) => r.id), harvested: spec?.meta.harvested ?? false },
    { key: 'jira_tickets', pattern: ID_PATTERNS.story, label: 'US-nnn', ids: (jira?.stories ?? []).map((story) => story.id), harvested: jira?.meta.harvested ?? false },
    { key: 'test_report', pattern: ID_PATTERNS.test, label: 'TC-nnn', ids: (tests?.tests ?? []).filter((test) => !test.synthetic).map((test) => test.id), harvested: tests?.meta.harvested ?? false },
    { key: 'threat_model', pattern: ID_PATTERNS.threat, label: 'THR-nnn', ids: (threats?.threats ?? []).map((threat) => threat.id), harvested: threats?.meta.harvested ?? false },
    { key: 'system_design', pattern: ID_PATTERNS.control, label: 'SC-nnn', ids: (design?.controls ?? []).map((control) => control.id), harvested: design?.meta.harvested ?? false },
  ];
  const findings: Finding[] = [];
  for (const group of groups) {
    const invalid = [...new Set(group.ids.filter((id) => !group.pattern.test(id)))];
    if (invalid.length === 0) continue;
    findings.push(findingAt(model, group.key, { rule: 'references.invalid_id', title: `${invalid.length} id${invalid.length === 1 ? '' : 's'} in ${group.key} do not match ${group.label}`, description: `${listIds(invalid)} in ${group.key} do not match the pattern ${group.label}, so other contracts cannot reference them reliably.`, ids: invalid, action: `Renumber ${listIds(invalid, 3)} to the ${group.label} pattern and update every reference.`, baseline: group.harvested }));
  }
  return findings;
}

// Ids defined more than once in one contract.
function duplicateFindings(model: ReviewModel): Finding[] {
  const byKey = new Map<ContractKey, string[]>();
  for (const duplicate of model.duplicates) {
    const ids = byKey.get(duplicate.key);
    if (ids === undefined) byKey.set(duplicate.key, [duplicate.id]);
    else ids.push(duplicate.id);
  }
  return [...byKey].map(([key, ids]) => {
    const unique = [...new Set(ids)];
    return findingAt(model, key, { rule: 'references.duplicate_id', title: `${unique.length} id${unique.length === 1 ? '' : 's'} defined twice in ${key}`, description: `${listIds(unique)} ${unique.length === 1 ? 'is' : 'are'} defined more than once in ${key}; references to ${unique.length === 1 ? 'it' : 'them'} are ambiguous.`, ids: unique, action: `Give every entry of ${key} its own id.`, baseline: model.contracts[key]?.meta.harvested ?? false });
  });
}

/**
 * Analysis 6 (references): every referenced FR/NFR/US/TC/THR/SC id exists in
 * its source contract (a dangling reference is a WARNING), every defined id
 * matches its pattern (WARNING), and no id is defined twice (WARNING). A
 * reference is checked only when its source contract was read. Pure.
 *
 * @public
 */
export function analyseReferences(model: ReviewModel): Finding[] {
  return [...danglingFindings(model), ...invalidIdFindings(model), ...duplicateFindings(model)];
}
