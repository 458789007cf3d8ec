import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { list, reviewMutated, stories } from '../fixtures.js';

// What a row's code (or tests) column means: the distinct paths linked to the FR directly, then through each of its
// stories in story order, each path once where it is first seen.
function naiveLinked(
  links: readonly (readonly [string, readonly string[]])[],
  fr: string,
  frStories: string[],
): string[] {
  const out: string[] = [];
  for (const key of [fr, ...frStories])
    for (const [value, ids] of links) if (ids.includes(key) && !out.includes(value)) out.push(value);
  return out;
}

// Code files over a few paths (repeats included) linking FR-001 and its two stories, in any mix.
const linkLists = fc.array(
  fc.tuple(fc.integer({ min: 0, max: 30 }), fc.subarray(['FR-001', 'US-001', 'US-003'], { minLength: 1 })),
  { maxLength: 90, size: 'max' },
);

describe('traceability matrix', () => {
  it("a row's code and tests are the distinct values linked to the FR, then to each story, first seen first", () => {
    fc.assert(
      fc.property(linkLists, linkLists, (codeLinks, testLinks) => {
        const files = codeLinks.map(([n, ids]) => [`src/f${n}.ts`, ids] as const);
        const tests = testLinks.map(([n, ids]) => [`TC-${String(100 + n)}`, ids] as const);
        const report = reviewMutated((run) => {
          stories(run).push({ ...stories(run)[0], story_id: 'US-003', linked_requirements: ['FR-001'] });
          list(run.code_report, 'files').push(
            ...files.map(([path, ids]) => ({ path, implements: [...ids], service: 'auth' })),
          );
          list(run.test_report, 'test_cases').push(
            ...tests.map(([id, ids]) => ({
              id,
              story_ids: ids.filter((x) => x.startsWith('US-')),
              requirement_ids: ids.filter((x) => x.startsWith('FR-')),
              status: 'passed',
            })),
          );
        });
        const row = report.traceability_matrix.requirements[0];
        const allFiles = [['src/auth/login.ts', ['US-001', 'FR-001']] as const, ...files];
        const allTests = [['TC-001', ['US-001', 'FR-001']] as const, ...tests];
        expect(row?.stories).toEqual(['US-001', 'US-003']);
        expect(row?.code).toEqual(naiveLinked(allFiles, 'FR-001', ['US-001', 'US-003']));
        expect(row?.tests).toEqual(naiveLinked(allTests, 'FR-001', ['US-001', 'US-003']));
      }),
      { numRuns: 60 },
    );
  });

  it('a requirement one test names in story_ids and another in requirement_ids lists both tests, in test order', () => {
    const report = reviewMutated((run) => {
      const cases = list(run.test_report, 'test_cases');
      cases.unshift({ id: 'TC-000', story_ids: ['FR-001'], requirement_ids: [], status: 'passed' });
      cases.push({ id: 'TC-004', story_ids: ['FR-002'], requirement_ids: ['FR-001'], status: 'passed' });
    });
    const [first, second] = report.traceability_matrix.requirements;
    expect(first?.tests).toEqual(['TC-000', 'TC-001', 'TC-004']);
    expect(second?.tests).toEqual(['TC-002', 'TC-004']);
  });

  it('a requirement id listed in deployed_stories deploys its own row, beside its deployed stories', () => {
    const report = reviewMutated((run) => {
      run.deployment_report.deployed_stories = ['FR-002', 'US-001'];
    });
    expect(report.traceability_matrix.requirements.map((row) => row.deployment)).toEqual([['US-001'], ['FR-002']]);
  });

  it('a story defined twice links through its first definition only', () => {
    const report = reviewMutated((run) => {
      stories(run).push({ ...stories(run)[0], linked_requirements: ['FR-002'] });
    });
    expect(report.traceability_matrix.requirements.map((row) => row.stories)).toEqual([['US-001'], ['US-002']]);
  });
});
