import { describe, expect, it } from 'vitest';
import { scopeBaseline } from '../../../src/review/core/baseline.js';
import { buildReviewModel, linksOf, type ReviewModel } from '../../../src/review/core/model.js';
import { reviewModel } from '../../../src/review/core/review-pipeline.js';
import { asContracts, cleanRun, TIMESTAMP } from '../fixtures.js';

// The clean run with a second file implementing US-001 twice and a dangling story, and a story linking FR-001 twice.
function linkedRun() {
  const run = structuredClone(cleanRun()) as ReturnType<typeof cleanRun> & Record<string, Record<string, never>>;
  const files = run.code_report.files as object[];
  files.push({ path: 'src/auth/session.ts', implements: ['US-001', 'US-404', 'US-001'] });
  const epics = run.jira_tickets.epics as { user_stories: { linked_requirements: string[] }[] }[];
  (epics[0]?.user_stories[0] as { linked_requirements: string[] }).linked_requirements = ['FR-001', 'FR-001'];
  return run;
}

// The id-keyed maps of a model, as plain entries.
const maps = (model: ReviewModel) => ({
  storiesOf: [...model.storiesOf],
  codeOf: [...model.codeOf],
  testsOf: [...model.testsOf],
});

describe('the review model', () => {
  it('indexes stories, code and tests by the id they name, keys in first-seen order, each value once per id', () => {
    const model = buildReviewModel(asContracts(linkedRun()));
    expect(maps(model)).toEqual({
      storiesOf: [
        ['FR-001', ['US-001']],
        ['FR-002', ['US-002']],
      ],
      codeOf: [
        ['US-001', ['src/auth/login.ts', 'src/auth/session.ts']],
        ['FR-001', ['src/auth/login.ts']],
        ['US-002', ['src/auth/logout.ts']],
        ['US-404', ['src/auth/session.ts']],
      ],
      testsOf: [
        ['US-001', ['TC-001']],
        ['FR-001', ['TC-001']],
        ['US-002', ['TC-002']],
        ['FR-002', ['TC-002']],
        ['NFR-001', ['TC-003']],
      ],
    });
  });

  it('keeps the links of a model whose baseline flags the review clears', () => {
    const run = linkedRun();
    (run.test_report.test_cases as { source?: string }[])[0] = {
      ...(run.test_report.test_cases as object[])[0],
      source: 'brownfield-adoption',
    };
    const model = buildReviewModel(asContracts(run));
    expect(model.tests[0]?.source).toBe('brownfield-adoption');
    const scoped = scopeBaseline(model, false);
    expect(scoped).not.toBe(model);
    expect(scoped.tests[0]?.source).toBeUndefined();
    expect(scoped.tests.slice(1)).toEqual(model.tests.slice(1));
    expect(linksOf(scoped)).toBe(linksOf(model));
    expect(maps(scoped)).toEqual(maps(model));
  });

  it('links a model made by hand from its own fields on first use', () => {
    const built = buildReviewModel(asContracts(linkedRun()));
    const byHand: ReviewModel = { ...built };
    expect(linksOf(byHand)).not.toBe(linksOf(built));
    expect(linksOf(byHand).space.ids).toEqual(linksOf(built).space.ids);
    const options = { timestamp: TIMESTAMP };
    expect(JSON.stringify(reviewModel(byHand, options))).toBe(JSON.stringify(reviewModel(built, options)));
  });
});
