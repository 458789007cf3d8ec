import type { ContractKey } from '../core/contract-slots.js';
import { type Finding, findingAt, listIds } from '../core/finding.js';
import type { LinkColumn } from '../core/link-table.js';
import { linksOf, type ReviewModel } from '../core/model.js';
import { type LinkTarget, undefinedKeys } from '../core/model-links.js';
import { invalidIdFindings } from './id-patterns.js';

type Target = 'requirement' | 'story' | 'test' | 'threat' | 'control' | 'requirement_or_story';

// One kind of reference: the contract holding it, the field, the target kind, and the items whose id lists it reads
// (or, for a field the model indexes, the index's keys: each referenced id once, in first-seen order).
interface ReferenceGroup {
  readonly from: ContractKey;
  readonly field: string;
  readonly target: Target;
  readonly items: readonly unknown[];
  readonly ids: (item: unknown) => readonly string[];
  readonly distinct?: Iterable<string>;
}

// A reference group over the id lists of some items (read in place: no array of all the ids is built).
function group<T>(
  from: ContractKey,
  field: string,
  target: Target,
  items: readonly T[],
  ids: (item: T) => readonly string[],
): ReferenceGroup {
  return { from, field, target, items, ids: ids as (item: unknown) => readonly string[] };
}

// A reference group over a field the model indexes by referenced id: resolving each id the field names once (in
// first-seen order; for a link column, each id it names that is not defined) resolves every reference.
function indexed(from: ContractKey, field: string, target: Target, distinct: Iterable<string>): ReferenceGroup {
  return { from, field, target, items: [], ids: () => [], distinct };
}

// Every explicit reference of the run, grouped by contract and field.
function referenceGroups(model: ReviewModel): ReferenceGroup[] {
  const { jira_tickets: jira, deployment_report: deployment, documentation } = model.contracts;
  const stories = jira?.stories ?? [];
  const links = linksOf(model);
  // A group over a link column: the ids it names that are not defined as `target` (the others resolve).
  const column = (from: ContractKey, field: string, target: LinkTarget, named: LinkColumn): ReferenceGroup =>
    indexed(from, field, target, undefinedKeys(links, named, target));
  // With every story defined once, storiesOf's keys are the linked requirements in first-seen order.
  const storiesOnce = !model.duplicates.some((duplicate) => duplicate.key === 'jira_tickets');
  return [
    storiesOnce
      ? column('jira_tickets', 'linked_requirements', 'requirement', links.storiesOf)
      : group('jira_tickets', 'linked_requirements', 'requirement', stories, (story) => story.requirementIds),
    group('jira_tickets', 'blocked_by', 'story', stories, (story) => story.blockedBy),
    indexed('system_design', 'security_controls.nfr_ids', 'requirement', model.controlsOf.keys()),
    column('code_report', 'implements', 'requirement_or_story', links.codeOf),
    indexed('code_report', 'mitigates', 'threat', model.mitigationsOf.keys()),
    column('test_report', 'story_ids', 'story', links.testsByStory),
    column('test_report', 'requirement_ids', 'requirement', links.testsByRequirement),
    indexed('test_report', 'controls', 'control', model.testsOfControl.keys()),
    group(
      'deployment_report',
      'deployed_stories',
      'requirement_or_story',
      [deployment?.deployedStories ?? []],
      (ids) => ids,
    ),
    group(
      'documentation',
      'covers',
      'requirement_or_story',
      documentation?.documents ?? [],
      (document) => document.covers ?? [],
    ),
  ];
}

// Whether an id of a target kind resolves: true, false (dangling) or null (its source contract was not read). Built once per target, O(1) per id.
function resolverOf(model: ReviewModel, target: Target): (id: string) => boolean | null {
  const {
    requirement_spec: spec,
    jira_tickets: jira,
    test_report: tests,
    threat_model: threats,
    system_design: design,
  } = model.contracts;
  const within = (read: boolean, ids: () => Iterable<string>): ((id: string) => boolean | null) => {
    if (!read) return () => null;
    const known = new Set(ids());
    return (id) => known.has(id);
  };
  switch (target) {
    case 'requirement':
      return spec === null ? () => null : (id) => model.requirements.has(id);
    case 'story':
      return jira === null ? () => null : (id) => model.stories.has(id);
    case 'test':
      return within(tests !== null, () => model.tests.map((test) => test.id));
    case 'threat':
      return within(threats !== null, () => (threats?.threats ?? []).map((threat) => threat.id));
    case 'control':
      return within(design !== null, () => (design?.controls ?? []).map((control) => control.id));
    case 'requirement_or_story':
      return (id) => {
        // Either index may hold it; a US- id is looked up among the stories first (same answer, one lookup fewer).
        const story = id.startsWith('US-');
        if (
          (story ? model.stories : model.requirements).has(id) ||
          (story ? model.requirements : model.stories).has(id)
        )
          return true;
        if (story) return jira === null ? null : false;
        if (/^N?FR-/.test(id)) return spec === null ? null : false;
        return spec === null && jira === null ? null : false;
      };
  }
}

// Dangling references, one finding per contract field listing the unknown ids (first-seen order).
function danglingFindings(model: ReviewModel): Finding[] {
  const findings: Finding[] = [];
  for (const group of referenceGroups(model)) {
    if (model.contracts[group.from] === null) continue;
    const resolves = resolverOf(model, group.target);
    const unknown = new Set<string>();
    if (group.distinct !== undefined) for (const id of group.distinct) if (resolves(id) === false) unknown.add(id);
    for (let index = 0; index < group.items.length; index++) {
      const ids = group.ids(group.items[index]);
      for (let at = 0; at < ids.length; at++) if (resolves(ids[at] as string) === false) unknown.add(ids[at] as string);
    }
    if (unknown.size === 0) continue;
    const dangling = [...unknown];
    const target = group.target.replace('_or_', ' or ');
    findings.push(
      findingAt(model, group.from, {
        rule: 'references.dangling',
        title: `${group.from}.${group.field} references ${dangling.length} unknown ${target} id${dangling.length === 1 ? '' : 's'}`,
        description: `${group.field} in ${group.from} references ${listIds(dangling)}, defined in no contract (a different id format, a renamed or a deleted ${target}).`,
        ids: dangling,
        action: `Correct the ids in ${group.field} to ids that exist, or define them in their source contract.`,
        baseline: model.contracts[group.from]?.meta.harvested ?? false,
      }),
    );
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
    return findingAt(model, key, {
      rule: 'references.duplicate_id',
      title: `${unique.length} id${unique.length === 1 ? '' : 's'} defined twice in ${key}`,
      description: `${listIds(unique)} ${unique.length === 1 ? 'is' : 'are'} defined more than once in ${key}; references to ${unique.length === 1 ? 'it' : 'them'} are ambiguous.`,
      ids: unique,
      action: `Give every entry of ${key} its own id.`,
      baseline: model.contracts[key]?.meta.harvested ?? false,
    });
  });
}

/**
 * Analysis 6 (references): every referenced FR/NFR/US/TC/THR/SC id exists in its source contract (a dangling reference
 * is a WARNING), every defined id matches its pattern (WARNING), and no id is defined twice (WARNING). @public
 */
export function analyseReferences(model: ReviewModel): Finding[] {
  return [...danglingFindings(model), ...invalidIdFindings(model), ...duplicateFindings(model)];
}
