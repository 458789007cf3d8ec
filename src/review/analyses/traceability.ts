import type { TraceabilityRow } from '../contracts/feedback-report.js';
import type { NormalizedStory } from '../contracts/jira-tickets.js';
import { isBaselineItem, NO_ITEMS } from '../contracts/metadata.js';
import { isTestLevel, type NormalizedTest } from '../contracts/test-report.js';
import { type Finding, findingAt } from '../core/finding.js';
import { hasContracts, linksOf, type ReviewModel } from '../core/model.js';
import { isTested, undefinedKeys } from '../core/model-links.js';

// True when any of `ids` is a known requirement.
function anyRequirement(model: ReviewModel, ids: readonly string[] | undefined): boolean {
  if (ids !== undefined)
    for (let index = 0; index < ids.length; index++) if (model.requirements.has(ids[index] as string)) return true;
  return false;
}

// The requirement_ids that name no known requirement, each once: usually none, so a test's requirement_ids are known
// without looking each one up (every id a test names there is a key of the field's index).
function unknownRequirementIds(model: ReviewModel): ReadonlySet<string> {
  const links = linksOf(model);
  return new Set(undefinedKeys(links, links.testsByRequirement, 'requirement'));
}

// True when a test maps to no known requirement, directly, through a known story or through a control.
function isOrphan(
  model: ReviewModel,
  test: NormalizedTest,
  controlNfrs: ReadonlyMap<string, readonly string[]>,
  unknown: ReadonlySet<string>,
): boolean {
  const ids = test.requirement_ids;
  for (let index = 0; index < ids.length; index++) if (!unknown.has(ids[index] as string)) return false;
  for (const control of test.controls ?? NO_ITEMS) if (anyRequirement(model, controlNfrs.get(control))) return false;
  const stories = test.story_ids;
  if (stories.length === 0) return true;
  if (model.contracts.jira_tickets === null) return false;
  for (let index = 0; index < stories.length; index++)
    if (anyRequirement(model, model.stories.get(stories[index] as string)?.requirementIds)) return false;
  return true;
}

/**
 * Analysis 1, requirements traceability: an FR with no story or no test (CRITICAL), a story with no test (CRITICAL), an
 * FR with no code (WARNING), a failed test (WARNING), an orphan test (INFO). @public
 */
export function* traceabilityFindings(model: ReviewModel, rows: readonly TraceabilityRow[]): Generator<Finding> {
  const withStories = hasContracts(model, ['requirement_spec', 'jira_tickets']);
  const withTests = hasContracts(model, ['requirement_spec', 'test_report']);
  const withCode = hasContracts(model, ['requirement_spec', 'code_report']);
  for (const row of rows) {
    const id = row.requirement_id;
    const baseline = row.baseline;
    if (withStories && row.stories.length === 0) {
      yield findingAt(model, 'jira_tickets', {
        rule: 'traceability.requirement_without_story',
        title: `${id} has no user story`,
        description: `Functional requirement ${id} ("${row.title}") is linked by no user story, so it will never be implemented.`,
        ids: [id],
        action: `Add a user story whose linked_requirements include ${id}.`,
        baseline,
      });
    }
    if (withTests && row.stories.length === 0 && row.tests.length === 0) {
      yield findingAt(model, 'test_report', {
        rule: 'traceability.requirement_without_test',
        title: `${id} has no test case`,
        description: `No test case covers functional requirement ${id}, directly or through a story.`,
        ids: [id],
        action: `Add a test case whose requirement_ids include ${id}.`,
        baseline,
      });
    }
    if (withCode && row.code.length === 0) {
      yield findingAt(model, 'code_report', {
        rule: 'traceability.requirement_without_code',
        title: `${id} has no code`,
        description: `No code file implements ${id} or any of its stories${row.stories.length > 0 ? ` (${row.stories.join(', ')})` : ''}; it may be covered indirectly.`,
        ids: [id, ...row.stories],
        action: `Implement ${id} and list it (or its stories) in the implements[] of the code files.`,
        baseline,
      });
    }
  }
  if (hasContracts(model, ['jira_tickets', 'test_report'])) {
    const links = linksOf(model);
    // The stories in model order, through their ordinals; the list of stories is made at the first untested one.
    let stories: readonly NormalizedStory[] | undefined;
    for (let index = 0; index < links.storyOrdinals.length; index++) {
      if (isTested(links, links.storyOrdinals[index] as number)) continue;
      stories ??= [...model.stories.values()];
      const story = stories[index] as NormalizedStory;
      yield findingAt(model, 'test_report', {
        rule: 'traceability.story_without_test',
        title: `${story.id} has no test case`,
        description: `User story ${story.id} ("${story.title}") is covered by no test case: its behaviour is untested.`,
        ids: [story.id, ...story.requirementIds],
        action: `Add a test case whose story_ids include ${story.id}.`,
        baseline: story.baseline,
      });
    }
  }
  const report = model.contracts.test_report;
  const controlNfrs = new Map(
    (model.contracts.system_design?.controls ?? []).map((control) => [control.id, control.nfrIds]),
  );
  if (report !== null) {
    const unknownRequirements = withTests ? unknownRequirementIds(model) : new Set<string>();
    for (let index = 0; index < model.tests.length; index++) {
      const test = model.tests[index] as NormalizedTest;
      const baseline = isBaselineItem(test.source, report.meta.harvested);
      if (test.status === 'failed')
        yield findingAt(model, 'test_report', {
          rule: 'traceability.test_failed',
          title: `${test.id} failed`,
          description: `Test case ${test.id} failed${test.story_ids.length > 0 ? ` (stories ${test.story_ids.join(', ')})` : ''}.`,
          ids: [test.id, ...test.story_ids, ...test.requirement_ids],
          action: `Fix the code under test so that ${test.id} passes (or fix the test if it is wrong).`,
          baseline,
        });
      if (withTests && !isTestLevel(test) && isOrphan(model, test, controlNfrs, unknownRequirements)) {
        yield findingAt(model, 'test_report', {
          rule: 'traceability.orphan_test',
          title: `${test.id} maps to no requirement`,
          description: `Test case ${test.id} covers no known requirement, directly or through a story (possibly over-testing).`,
          ids: [test.id],
          action: `Link ${test.id} to the requirement it verifies, or remove it.`,
          baseline,
        });
      }
    }
    if (report.unnamedFailures > 0) {
      yield findingAt(model, 'test_report', {
        rule: 'traceability.test_failed',
        title: `${report.unnamedFailures} test${report.unnamedFailures === 1 ? '' : 's'} failed`,
        description: `The test report counts ${report.unnamedFailures} failed tests without naming them.`,
        action: 'Fix the failing tests, and name test cases with their story and requirement ids.',
        baseline: report.meta.harvested,
      });
    }
  }
}
