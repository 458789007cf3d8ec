import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NormalizedTest } from '../../../src/review/contracts/test-report.js';
import { linkTests, testsCovering, testsOfIndex } from '../../../src/review/core/test-links.js';

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
  list.map((test) => ({ ...test, synthetic: false, controls: [], status: 'passed', baseline: false }));

describe('per-field test links', () => {
  it('give, for every id and either field first, exactly what the combined testsOf index gives', () => {
    fc.assert(
      fc.property(tests, (list) => {
        const all = normalized(list);
        const combined = testsOfIndex(all);
        const links = linkTests(all);
        for (const id of ['US-001', 'US-002', 'US-003', 'FR-001', 'FR-002', 'X-1', 'NONE'])
          for (const first of ['story', 'requirement'] as const)
            expect(testsCovering(links, id, first, () => combined)).toEqual(combined.get(id));
      }),
    );
  });

  it('report an overlap exactly when some id is named in both fields', () => {
    fc.assert(
      fc.property(tests, (list) => {
        const all = normalized(list);
        const inStory = new Set(all.flatMap((test) => test.storyIds));
        const both = all.some((test) => test.requirementIds.some((id) => inStory.has(id)));
        expect(linkTests(all).overlap).toBe(both);
      }),
    );
  });

  it('key each field in first-seen order, one key per distinct id', () => {
    const links = linkTests(
      normalized([
        { id: 'TC-1', storyIds: ['US-2', 'US-1'], requirementIds: ['FR-9'] },
        { id: 'TC-2', storyIds: ['US-1', 'US-3'], requirementIds: ['FR-1', 'FR-9'] },
      ]),
    );
    expect([...links.byStoryField.keys()]).toEqual(['US-2', 'US-1', 'US-3']);
    expect([...links.byRequirementField.keys()]).toEqual(['FR-9', 'FR-1']);
    expect(links.byStoryField.get('US-1')).toEqual(['TC-1', 'TC-2']);
  });
});
