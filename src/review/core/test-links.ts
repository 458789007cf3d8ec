// The tests linked to each id, kept apart by the field that names the id (story_ids, requirement_ids): so a dangling
// reference is found once per distinct id instead of once per reference, and a test's requirements are known to
// exist without looking each one up, in the common case where no id is named by both fields.
import type { NormalizedTest } from '../contracts/test-report.js';
import { finishLinkIndex, type LinkIndex, linkEach } from './model-index.js';

/** Test ids by the id their story_ids or requirement_ids name, per field. @internal */
export interface TestLinks {
  /** Test ids naming each id in story_ids, in first-seen order of the ids. */
  readonly byStoryField: ReadonlyMap<string, readonly string[]>;
  /** Test ids naming each id in requirement_ids, in first-seen order of the ids. */
  readonly byRequirementField: ReadonlyMap<string, readonly string[]>;
  /** True when some id is named by both fields (then the union needs the tests' order: {@link testsOfIndex}). */
  readonly overlap: boolean;
}

/** Links every test to the ids it names, one index per field. Pure. @internal */
export function linkTests(tests: readonly NormalizedTest[]): TestLinks {
  const byStory: LinkIndex = new Map();
  const byRequirement: LinkIndex = new Map();
  for (let index = 0; index < tests.length; index++) {
    const test = tests[index] as NormalizedTest;
    linkEach(byStory, test.storyIds, test.id);
    linkEach(byRequirement, test.requirementIds, test.id);
  }
  const [smaller, larger] = byStory.size < byRequirement.size ? [byStory, byRequirement] : [byRequirement, byStory];
  let overlap = false;
  for (const id of smaller.keys())
    if (larger.has(id)) {
      overlap = true;
      break;
    }
  return { byStoryField: finishLinkIndex(byStory), byRequirementField: finishLinkIndex(byRequirement), overlap };
}

/**
 * The model's `testsOf`: test ids covering each story or requirement id, both fields together in test order (a
 * repeat of a key's last value dropped), keyed in first-seen order. Pure. @internal
 */
export function testsOfIndex(tests: readonly NormalizedTest[]): Map<string, string[]> {
  const testsOf: LinkIndex = new Map();
  for (let index = 0; index < tests.length; index++) {
    const test = tests[index] as NormalizedTest;
    linkEach(testsOf, test.storyIds, test.id);
    linkEach(testsOf, test.requirementIds, test.id);
  }
  return finishLinkIndex(testsOf);
}

/**
 * The tests covering `id`, as `testsOf.get(id)` gives them: from the field `first` names when it has the id (one
 * lookup in the common case: a requirement's tests name it in requirement_ids), else the other; `union` is consulted
 * only when some id is named by both fields. Pure. @internal
 */
export function testsCovering(
  links: TestLinks,
  id: string,
  first: 'story' | 'requirement',
  union: () => ReadonlyMap<string, readonly string[]>,
): readonly string[] | undefined {
  if (links.overlap) return union().get(id);
  const [preferred, other] =
    first === 'story' ? [links.byStoryField, links.byRequirementField] : [links.byRequirementField, links.byStoryField];
  return preferred.get(id) ?? other.get(id);
}
