import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NormalizedStory } from '../../../src/review/contracts/jira-tickets.js';
import type { NormalizedTest } from '../../../src/review/contracts/test-report.js';
import { columnValues } from '../../../src/review/core/link-table.js';
import { testsOfIndex } from '../../../src/review/core/model-index.js';
import {
  isTested,
  linkModel,
  mergedTestIds,
  ordinalOf,
  testColumn,
  undefinedKeys,
} from '../../../src/review/core/model-links.js';

// Tests naming ids from a small pool in both fields, so ids repeat, cross fields and sometimes overlap.
const ids = fc.constantFrom('US-001', 'US-002', 'US-003', 'FR-001', 'FR-002', 'X-1');
const tests = fc.array(
  fc.record({
    id: fc.constantFrom('TC-001', 'TC-002', 'TC-003', 'TC-004'),
    storyIds: fc.array(ids, { maxLength: 3 }),
    requirementIds: fc.array(ids, { maxLength: 3 }),
  }),
  { maxLength: 12 },
);
const normalized = (list: readonly { id: string; storyIds: string[]; requirementIds: string[] }[]): NormalizedTest[] =>
  list.map((test) => ({
    id: test.id,
    story_ids: test.storyIds,
    requirement_ids: test.requirementIds,
    status: 'passed',
  }));
// Links stories, tests and deployed ids of a model whose requirements are FR-001, FR-002 and FR-003 (no code files).
const linkTo = (
  stories: readonly NormalizedStory[],
  tests: readonly NormalizedTest[],
  deployed: readonly string[] | null = null,
) =>
  linkModel({
    requirements: new Map(['FR-001', 'FR-002', 'FR-003'].map((id) => [id, {}])),
    stories: new Map(stories.map((story) => [story.id, story])),
    tests,
    contracts: { code_report: null, deployment_report: deployed === null ? null : { deployedStories: deployed } },
  });
const POOL = ['US-001', 'US-002', 'US-003', 'FR-001', 'FR-002', 'X-1', 'NONE'];

// A story of `id` linking FR-002.
const story = (id: string): NormalizedStory => ({
  id,
  title: id,
  epic: null,
  requirementIds: ['FR-002'],
  points: 1,
  sprint: null,
  assignee: null,
  blockedBy: [],
  baseline: false,
});

// The distinct values of a list, in first-seen order.
const distinct = (list: readonly string[] | undefined): string[] => [...new Set(list ?? [])];

describe('model links', () => {
  it('give, for every id and either field first, the tests the combined testsOf index gives', () => {
    fc.assert(
      fc.property(tests, (list) => {
        const all = normalized(list);
        const combined = testsOfIndex(all);
        const links = linkTo([], all);
        for (const id of POOL) {
          const ordinal = ordinalOf(links, id);
          expect(isTested(links, ordinal)).toBe(combined.has(id));
          for (const first of ['story', 'requirement'] as const) {
            const covering = links.overlap
              ? mergedTestIds(links, ordinal)
              : columnValues(testColumn(links, ordinal, first), ordinal);
            // The matrix keeps each test once, in first-seen order: that is what must agree.
            expect(distinct(covering)).toEqual(distinct(combined.get(id)));
            if (!links.overlap) expect(covering).toEqual(combined.get(id) ?? []);
          }
        }
      }),
    );
  });

  it('report an overlap exactly when some id is named in both fields', () => {
    fc.assert(
      fc.property(tests, (list) => {
        const all = normalized(list);
        const inStory = new Set(all.flatMap((test) => test.story_ids));
        const both = all.some((test) => test.requirement_ids.some((id) => inStory.has(id)));
        expect(linkTo([], all).overlap).toBe(both);
      }),
    );
  });

  it('merge the two fields in test order, a test naming the id in both fields once', () => {
    const links = linkTo(
      [],
      normalized([
        { id: 'TC-1', storyIds: ['FR-001'], requirementIds: [] },
        { id: 'TC-2', storyIds: ['FR-001'], requirementIds: ['FR-001'] },
        { id: 'TC-3', storyIds: [], requirementIds: ['FR-001'] },
      ]),
    );
    expect(links.overlap).toBe(true);
    expect(mergedTestIds(links, ordinalOf(links, 'FR-001'))).toEqual(['TC-1', 'TC-2', 'TC-3']);
  });

  it('intern the story ids and the ids links name; a requirement no link names has no ordinal', () => {
    const links = linkTo([story('US-7'), story('FR-001')], [], ['US-7', 'US-404']);
    expect(links.space.ids).toEqual(['US-7', 'FR-001', 'FR-002', 'US-404']);
    // A story whose id is also a requirement id shares that ordinal.
    expect([...links.storyOrdinals]).toEqual([0, 1]);
    expect([...links.requirementOrdinals]).toEqual([1, 2, -1]);
    expect([...links.isRequirement]).toEqual([0, 1, 1, 0]);
    expect([...links.isStory]).toEqual([1, 1, 0, 0]);
    expect([...(links.isDeployed ?? [])]).toEqual([1, 0, 0, 1]);
    expect(columnValues(links.storiesOf, 2)).toEqual(['US-7', 'FR-001']);
    expect(linkTo([], []).isDeployed).toBeNull();
  });

  it('list as undefined only the ids a column names that are not of the kind asked, in first-seen order', () => {
    const links = linkTo(
      [{ ...story('US-7'), requirementIds: ['FR-404', 'FR-001'] }],
      normalized([
        { id: 'TC-1', storyIds: ['US-9', 'US-7', 'FR-001'], requirementIds: ['US-7', 'FR-002', 'X-1'] },
        { id: 'TC-2', storyIds: ['US-9'], requirementIds: ['FR-004', 'FR-003'] },
      ]),
    );
    expect(undefinedKeys(links, links.testsByStory, 'story')).toEqual(['US-9', 'FR-001']);
    expect(undefinedKeys(links, links.testsByRequirement, 'requirement')).toEqual(['US-7', 'X-1', 'FR-004']);
    expect(undefinedKeys(links, links.testsByRequirement, 'requirement_or_story')).toEqual(['X-1', 'FR-004']);
    expect(undefinedKeys(links, links.storiesOf, 'requirement')).toEqual(['FR-404']);
  });
});
