// The model's heavy links as columns (link-table.ts); tests are split per field so the common case reads one column.
import type { NormalizedCodeFile } from '../contracts/code-report.js';
import type { NormalizedStory } from '../contracts/jira-tickets.js';
import type { NormalizedTest } from '../contracts/test-report.js';
import {
  type IdSpace,
  idSpace,
  intern,
  type LinkColumn,
  linkColumn,
  ordinalsOf,
  ownerCount,
  ownersEnd,
  ownersStart,
} from './link-table.js';

/** What a model's links are read from: its definitions, its tests, and the contracts of its code and deployment. @internal */
export interface LinkSources {
  readonly requirements: ReadonlyMap<string, unknown>;
  readonly stories: ReadonlyMap<string, NormalizedStory>;
  readonly tests: readonly NormalizedTest[];
  readonly contracts: {
    readonly code_report: { readonly files: readonly NormalizedCodeFile[] } | null;
    readonly deployment_report: { readonly deployedStories: readonly string[] | null } | null;
  };
}

/** The model's link columns over one id space. @internal */
export interface ModelLinks {
  readonly space: IdSpace;
  /** The ordinal of each requirement id, in the order of the model's requirements (-1: no link names it). */
  readonly requirementOrdinals: Int32Array;
  /** The ordinal of each story id, in the order of the model's stories. */
  readonly storyOrdinals: Int32Array;
  /** 1 at the ordinal of each requirement id. */
  readonly isRequirement: Uint8Array;
  /** 1 at the ordinal of each story id. */
  readonly isStory: Uint8Array;
  /** 1 at the ordinal of each id deployed_stories names, or null without a deployment report. */
  readonly isDeployed: Uint8Array | null;
  /** Owners: the model's stories (their linked requirements). */
  readonly storiesOf: LinkColumn;
  /** Owners: the code files (their implements). */
  readonly codeOf: LinkColumn;
  /** Owners: the tests (their story_ids). */
  readonly testsByStory: LinkColumn;
  /** Owners: the tests (their requirement_ids). */
  readonly testsByRequirement: LinkColumn;
  /** True when some id is named by both test fields (then a covering list merges both, in test order). */
  readonly overlap: boolean;
}

/** Links the model's stories (first definitions), code files, tests and deployed ids over one id space. @internal */
export function linkModel(sources: LinkSources): ModelLinks {
  const { requirements, stories, tests } = sources;
  const files = sources.contracts.code_report?.files ?? [];
  const deployed = sources.contracts.deployment_report?.deployedStories ?? null;
  const space = idSpace([]);
  const storyList = [...stories.values()];
  const storyOrdinals = ordinalsOf(storyList, (story) => intern(space, story.id));
  const testIds = tests.map((test) => test.id);
  const storiesOf = linkColumn(
    space,
    storyList.map((story) => story.requirementIds),
    storyList.map((story) => story.id),
  );
  const codeOf = linkColumn(
    space,
    files.map((file) => file.implements),
    files.map((file) => file.path),
  );
  const testsByStory = linkColumn(
    space,
    tests.map((test) => test.story_ids),
    testIds,
  );
  const testsByRequirement = linkColumn(
    space,
    tests.map((test) => test.requirement_ids),
    testIds,
  );
  const deployedOrdinals = deployed === null ? null : ordinalsOf(deployed, (id) => intern(space, id));
  const [smaller, larger] =
    testsByStory.keys.length < testsByRequirement.keys.length
      ? [testsByStory, testsByRequirement]
      : [testsByRequirement, testsByStory];
  const requirementOrdinals = ordinalsOf([...requirements.keys()], (id) => space.ordinals.get(id) ?? -1);
  return {
    space,
    requirementOrdinals,
    storyOrdinals,
    isRequirement: flags(space, requirementOrdinals),
    isStory: flags(space, storyOrdinals),
    isDeployed: deployedOrdinals === null ? null : flags(space, deployedOrdinals),
    storiesOf,
    codeOf,
    testsByStory,
    testsByRequirement,
    overlap: smaller.keys.some((ordinal) => ownerCount(larger, ordinal) > 0),
  };
}

// 1 at each of `ordinals` (-1 is none), over the whole space.
function flags(space: IdSpace, ordinals: Int32Array): Uint8Array {
  const set = new Uint8Array(space.ids.length);
  for (let index = 0; index < ordinals.length; index++) {
    const ordinal = ordinals[index] as number;
    if (ordinal >= 0) set[ordinal] = 1;
  }
  return set;
}

/** The ordinal of `id`, or -1 when no link or definition names it. @internal */
export function ordinalOf(links: ModelLinks, id: string): number {
  return links.space.ordinals.get(id) ?? -1;
}

/** What a link names: a requirement id, a story id, or either. @internal */
export type LinkTarget = 'requirement' | 'story' | 'requirement_or_story';

/** The ids `column` names that are not defined as `kind`: the only candidates for dangling references. @internal */
export function undefinedKeys(links: ModelLinks, column: LinkColumn, kind: LinkTarget): string[] {
  const ids: string[] = [];
  for (let at = 0; at < column.keys.length; at++) {
    const ordinal = column.keys[at] as number;
    const requirement = links.isRequirement[ordinal] === 1;
    const story = links.isStory[ordinal] === 1;
    const defined = kind === 'requirement' ? requirement : kind === 'story' ? story : requirement || story;
    if (!defined) ids.push(links.space.ids[ordinal] as string);
  }
  return ids;
}

/** True when some test names `ordinal` in story_ids or requirement_ids. @internal */
export function isTested(links: ModelLinks, ordinal: number): boolean {
  return ownerCount(links.testsByStory, ordinal) > 0 || ownerCount(links.testsByRequirement, ordinal) > 0;
}

/** The tests column for `ordinal` when no id is named by both fields. @internal */
export function testColumn(links: ModelLinks, ordinal: number, first: 'story' | 'requirement'): LinkColumn {
  const preferred = first === 'story' ? links.testsByStory : links.testsByRequirement;
  if (ownerCount(preferred, ordinal) > 0) return preferred;
  return first === 'story' ? links.testsByRequirement : links.testsByStory;
}

/** The tests covering `ordinal` from both fields together, in test order (a test naming it in both fields once). @internal */
export function mergedTestIds(links: ModelLinks, ordinal: number): string[] {
  const spans = [links.testsByStory, links.testsByRequirement].map((column) => ({
    column,
    at: ownersStart(column, ordinal),
    end: ownersEnd(column, ordinal),
  })) as [{ column: LinkColumn; at: number; end: number }, { column: LinkColumn; at: number; end: number }];
  const [story, requirement] = spans;
  const ids: string[] = [];
  while (story.at < story.end || requirement.at < requirement.end) {
    const fromStory = story.at < story.end ? (story.column.owners[story.at] as number) : Number.POSITIVE_INFINITY;
    const fromRequirement =
      requirement.at < requirement.end
        ? (requirement.column.owners[requirement.at] as number)
        : Number.POSITIVE_INFINITY;
    const owner = Math.min(fromStory, fromRequirement);
    if (fromStory === owner) story.at++;
    if (fromRequirement === owner) requirement.at++;
    ids.push(story.column.values[owner] as string);
  }
  return ids;
}
