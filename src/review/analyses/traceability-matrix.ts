// The traceability matrix: one FR → story → code → test → deployment row per functional requirement, and coverage.
import type { Coverage, TraceabilityMatrix, TraceabilityRow } from '../contracts/feedback-report.js';
import { type ReviewModel, testsOfId } from '../core/model.js';

// Lists past this length switch from a linear scan to a Set (most rows link a handful of values: no Set allocated).
const SCAN_LIMIT = 16;

// Appends the values of `list` not yet in `out` (whose values `seen` holds once it is non-null); returns `seen`.
function appendDistinct(out: string[], list: readonly string[], seen: Set<string> | null): Set<string> | null {
  let set = seen;
  for (let item = 0; item < list.length; item++) {
    const value = list[item] as string;
    if (set === null) {
      if (out.includes(value)) continue;
      out.push(value);
      if (out.length > SCAN_LIMIT) set = new Set(out);
    } else if (!set.has(value)) {
      set.add(value);
      out.push(value);
    }
  }
  return set;
}

// The distinct values linked to a requirement, its own (`own`) then through each of its stories (`ofStory`), in
// first-seen order.
function linked(
  own: readonly string[] | undefined,
  stories: readonly string[],
  ofStory: (id: string) => readonly string[] | undefined,
): string[] {
  const out: string[] = [];
  let seen = own === undefined ? null : appendDistinct(out, own, null);
  for (let at = 0; at < stories.length; at++) {
    const list = ofStory(stories[at] as string);
    if (list !== undefined) seen = appendDistinct(out, list, seen);
  }
  return out;
}

// Computes the FR → story → code → test → deployment row of every functional requirement.
function traceRows(model: ReviewModel): TraceabilityRow[] {
  const deployedList = model.contracts.deployment_report?.deployedStories ?? null;
  const deployed = deployedList === null ? null : new Set(deployedList);
  const rows: TraceabilityRow[] = [];
  const codeOf = (id: string): readonly string[] | undefined => model.codeOf.get(id);
  const testsOfStory = (id: string): readonly string[] | undefined => testsOfId(model, id, 'story');
  for (const requirement of model.requirements.values()) {
    if (requirement.type !== 'functional') continue;
    const stories = model.storiesOf.get(requirement.id)?.slice() ?? [];
    const code = linked(model.codeOf.get(requirement.id), stories, codeOf);
    const tests = linked(testsOfId(model, requirement.id, 'requirement'), stories, testsOfStory);
    const deployment: string[] = [];
    if (deployed !== null) {
      if (deployed.has(requirement.id)) deployment.push(requirement.id);
      for (const story of stories) if (deployed.has(story)) deployment.push(story);
    }
    const fullyTraced = stories.length > 0 && code.length > 0 && tests.length > 0;
    rows.push({
      requirement_id: requirement.id,
      title: requirement.title,
      baseline: requirement.baseline,
      stories,
      code,
      tests,
      deployment,
      fully_traced: fullyTraced,
    });
  }
  return rows;
}

// Counts coverage over a set of rows; the percentage has one decimal.
function coverage(rows: readonly TraceabilityRow[]): Coverage {
  const count = (test: (row: TraceabilityRow) => boolean): number =>
    rows.reduce((sum, row) => sum + (test(row) ? 1 : 0), 0);
  const fully = count((row) => row.fully_traced);
  return {
    total_requirements: rows.length,
    requirements_with_stories: count((row) => row.stories.length > 0),
    requirements_with_code: count((row) => row.code.length > 0),
    requirements_with_tests: count((row) => row.tests.length > 0),
    requirements_with_deployment: count((row) => row.deployment.length > 0),
    requirements_fully_traced: fully,
    coverage_percentage: rows.length === 0 ? 0 : Math.round((fully / rows.length) * 1000) / 10,
  };
}

/**
 * Builds the traceability matrix: the new work's coverage at the top level
 * and, when some requirements are harvested baseline, the baseline's
 * coverage apart. Pure.
 *
 * @public
 */
export function buildTraceabilityMatrix(model: ReviewModel): TraceabilityMatrix {
  const rows = traceRows(model);
  const baselineRows = rows.filter((row) => row.baseline);
  const matrix: TraceabilityMatrix = { ...coverage(rows.filter((row) => !row.baseline)), requirements: rows };
  return baselineRows.length === 0 ? matrix : { ...matrix, baseline: coverage(baselineRows) };
}
