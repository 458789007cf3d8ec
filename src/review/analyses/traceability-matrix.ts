// The traceability matrix: one FR → story → code → test → deployment row per functional requirement, and coverage.
import type { Coverage, TraceabilityMatrix, TraceabilityRow } from '../contracts/feedback-report.js';
import { type LinkColumn, ownersEnd, ownersStart, SCAN_LIMIT } from '../core/link-table.js';
import { linksOf, type ReviewModel } from '../core/model.js';
import { type ModelLinks, mergedTestIds, testColumn } from '../core/model-links.js';

// Appends `value` to `out` unless it is there already (a scan of `out`, or `seen` once it is non-null); returns `seen`.
function appendOnce(out: string[], value: string, seen: Set<string> | null): Set<string> | null {
  if (seen === null) {
    if (out.includes(value)) return null;
    out.push(value);
    return out.length > SCAN_LIMIT ? new Set(out) : null;
  }
  if (!seen.has(value)) {
    seen.add(value);
    out.push(value);
  }
  return seen;
}

// Appends the values of the owners naming `ordinal` in `column` that are not yet in `out`; returns `seen`.
function appendColumn(
  out: string[],
  column: LinkColumn,
  ordinal: number,
  seen: Set<string> | null,
): Set<string> | null {
  let set = seen;
  const end = ownersEnd(column, ordinal);
  for (let at = ownersStart(column, ordinal); at < end; at++)
    set = appendOnce(out, column.values[column.owners[at] as number] as string, set);
  return set;
}

// Appends the tests covering `ordinal` (as the model's testsOf lists them) not yet in `out`; returns `seen`.
function appendTests(
  out: string[],
  links: ModelLinks,
  ordinal: number,
  first: 'story' | 'requirement',
  seen: Set<string> | null,
): Set<string> | null {
  if (!links.overlap) return appendColumn(out, testColumn(links, ordinal, first), ordinal, seen);
  let set = seen;
  for (const id of mergedTestIds(links, ordinal)) set = appendOnce(out, id, set);
  return set;
}

// Computes the FR → story → code → test → deployment row of every functional requirement: its own code and tests
// first, then those of each of its stories, each value once in first-seen order.
function traceRows(model: ReviewModel): TraceabilityRow[] {
  const links = linksOf(model);
  const { storiesOf, codeOf, storyOrdinals, requirementOrdinals, isDeployed: deployed } = links;
  const rows: TraceabilityRow[] = [];
  let index = -1;
  for (const requirement of model.requirements.values()) {
    index++;
    if (requirement.type !== 'functional') continue;
    // -1 when no link names the requirement: every column is empty there.
    const ordinal = requirementOrdinals[index] as number;
    const stories: string[] = [];
    const code: string[] = [];
    const tests: string[] = [];
    let codeSeen = appendColumn(code, codeOf, ordinal, null);
    let testsSeen = appendTests(tests, links, ordinal, 'requirement', null);
    const deployment: string[] = [];
    if (deployed !== null && ordinal >= 0 && deployed[ordinal] === 1) deployment.push(requirement.id);
    const end = ownersEnd(storiesOf, ordinal);
    for (let at = ownersStart(storiesOf, ordinal); at < end; at++) {
      const owner = storiesOf.owners[at] as number;
      const story = storyOrdinals[owner] as number;
      const id = storiesOf.values[owner] as string;
      stories.push(id);
      if (deployed !== null && deployed[story] === 1) deployment.push(id);
      codeSeen = appendColumn(code, codeOf, story, codeSeen);
      testsSeen = appendTests(tests, links, story, 'story', testsSeen);
    }
    rows.push({
      requirement_id: requirement.id,
      title: requirement.title,
      baseline: requirement.baseline,
      stories,
      code,
      tests,
      deployment,
      fully_traced: stories.length > 0 && code.length > 0 && tests.length > 0,
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
 * Builds the traceability matrix: the new work's coverage at the top level and, when some requirements are harvested
 * baseline, the baseline's coverage apart. @public
 */
export function buildTraceabilityMatrix(model: ReviewModel): TraceabilityMatrix {
  const rows = traceRows(model);
  const baselineRows = rows.filter((row) => row.baseline);
  const matrix: TraceabilityMatrix = { ...coverage(rows.filter((row) => !row.baseline)), requirements: rows };
  return baselineRows.length === 0 ? matrix : { ...matrix, baseline: coverage(baselineRows) };
}
