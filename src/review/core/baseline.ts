import { type ContractMetadata, isBaselineItem } from '../contracts/metadata.js';
import type { NormalizedContracts } from '../contracts/registry.js';
import type { NormalizedTest } from '../contracts/test-report.js';
import { type ContractStatus, linksOf, type ReviewModel, withLinks } from './model.js';

// Items that may be flagged as harvested baseline.
type Flagged = { readonly baseline: boolean };

// True when any item of the list is flagged baseline.
function anyFlagged(items: readonly Flagged[] | undefined): boolean {
  if (items !== undefined)
    for (let index = 0; index < items.length; index++) if ((items[index] as Flagged).baseline) return true;
  return false;
}

// The list with every baseline flag cleared (the same list when none is set).
function cleared<T extends Flagged>(items: readonly T[]): readonly T[] {
  return anyFlagged(items) ? items.map((item) => (item.baseline ? { ...item, baseline: false } : item)) : items;
}

// True when a test carries the harvest mark of its own (a harvested report marks all of its tests through its metadata).
function isMarked(test: NormalizedTest): boolean {
  return isBaselineItem(test.source, false);
}

// The tests without their harvest marks (the same list when none is marked).
function unmarked(tests: readonly NormalizedTest[]): readonly NormalizedTest[] {
  return tests.some(isMarked) ? tests.map((test) => (isMarked(test) ? { ...test, source: undefined } : test)) : tests;
}

// The map with every baseline flag cleared, in the same order.
function clearedMap<T extends Flagged>(map: ReadonlyMap<string, T>): ReadonlyMap<string, T> {
  return new Map([...map].map(([id, item]) => [id, item.baseline ? { ...item, baseline: false } : item]));
}

// A contract value whose metadata no longer claims a harvest, with `lists` applied to its flagged lists.
function unharvested<T extends { readonly meta: ContractMetadata }>(
  value: T | null,
  lists: (value: T) => Partial<T> = () => ({}),
): T | null {
  return value === null ? null : { ...value, ...lists(value), meta: { ...value.meta, harvested: false } };
}

// True when some contract or item of the model claims to be harvested baseline.
function claimsBaseline(model: ReviewModel): boolean {
  const { contracts } = model;
  return (
    model.statuses.some((status) => status.meta?.harvested === true) ||
    anyFlagged(contracts.requirement_spec?.requirements) ||
    anyFlagged(contracts.jira_tickets?.stories) ||
    (contracts.test_report?.tests.some(isMarked) ?? false)
  );
}

/** The model as the analyses see it. @internal */
export function scopeBaseline(model: ReviewModel, adopt: boolean): ReviewModel {
  if (adopt || !claimsBaseline(model)) return model;
  const source = model.contracts;
  const tests = unmarked(model.tests);
  const contracts = Object.fromEntries(
    Object.entries(source).map(([key, value]) => [key, unharvested(value as { meta: ContractMetadata } | null)]),
  ) as unknown as Record<keyof NormalizedContracts, unknown>;
  const scoped: NormalizedContracts = {
    ...(contracts as unknown as NormalizedContracts),
    requirement_spec: unharvested(source.requirement_spec, (spec) => ({ requirements: cleared(spec.requirements) })),
    jira_tickets: unharvested(source.jira_tickets, (jira) => ({ stories: cleared(jira.stories) })),
    test_report: unharvested(source.test_report, () => ({ tests })),
  };
  const statuses = model.statuses.map(
    (status): ContractStatus =>
      status.meta?.harvested === true ? { ...status, meta: { ...status.meta, harvested: false } } : status,
  );
  // Clearing flags changes no id or link: the scoped model reads the same link columns.
  return withLinks(
    {
      statuses,
      contracts: scoped,
      requirements: clearedMap(model.requirements),
      stories: clearedMap(model.stories),
      tests,
      controlsOf: model.controlsOf,
      testsOfControl: model.testsOfControl,
      mitigationsOf: model.mitigationsOf,
      duplicates: model.duplicates,
    },
    linksOf(model),
  );
}
