import { z } from 'zod';
import { isArrayOf, isObject, isOptionalString } from '../../kit/zod-fast-path.js';
import { hasContractMetadata, isId, isIdList } from './fast-parse.js';
import {
  type ContractMetadata,
  type ContractRead,
  contractMetadataFields,
  hasKey,
  idListSchema,
  idSchema,
  metadataOf,
  NO_ITEMS,
  readWith,
} from './metadata.js';

const TEST_STATUSES: ReadonlySet<unknown> = new Set(['passed', 'failed', 'skipped']);

/** The fast predicate of {@link testCaseSchema} (see FastCheck). @internal */
export function isCanonicalTestCase(value: unknown): boolean {
  if (!isObject(value)) return false;
  return (
    isId(value.id) &&
    isIdList(value.story_ids) &&
    isIdList(value.requirement_ids) &&
    (value.controls === undefined || isIdList(value.controls)) &&
    TEST_STATUSES.has(value.status) &&
    isOptionalString(value.source)
  );
}

/**
 * One test case (`TC-nnn`) of the canonical `test_report.json`: the stories, requirements and security controls it
 * verifies, and its status. @public
 */
export const testCaseSchema = z.looseObject({
  id: idSchema.describe('The test case id, TC-nnn.'),
  story_ids: idListSchema.describe(
    'Story ids (US-nnn) of jira_tickets.json the test verifies; a story no test case names is CRITICAL.',
  ),
  requirement_ids: idListSchema.describe(
    'Requirement ids (FR-nnn, NFR-nnn) of requirement_spec.json the test verifies directly (it covers the requirements of its stories too).',
  ),
  controls: idListSchema
    .describe('Security control ids (SC-nnn) of system_design.json security_controls the test verifies.')
    .optional(),
  status: z.enum(['passed', 'failed', 'skipped']),
  source: z.string().optional(),
});

/** The canonical `test_report.json` (stage 08-testing). @public */
export const testReportSchema = z.looseObject({
  ...contractMetadataFields,
  test_cases: z.array(testCaseSchema),
});

/** The fast predicate of {@link testReportSchema} (see FastCheck). @internal */
export function isCanonicalTestReport(value: unknown): boolean {
  return isObject(value) && hasContractMetadata(value) && isArrayOf(value.test_cases, isCanonicalTestCase);
}

const countSchema = z.number().min(0).optional();

// The shape rstack-agents' 08-testing agent writes: test files, counts, and (where given) the requirement ids each test level covers.
const rstackTestReportSchema = z.looseObject({
  ...contractMetadataFields,
  test_files: z.array(z.string()).optional(),
  results: z.looseObject({ passed: countSchema, failed: countSchema, skipped: countSchema }).optional(),
  test_levels: z
    .record(
      z.string(),
      z.looseObject({ requirements_covered: idListSchema.optional(), stories_covered: idListSchema.optional() }),
    )
    .optional(),
  executed: z.boolean().optional(),
});

/**
 * A test, normalized: a canonical test case is already normal, so it is kept as read (a large report is not copied item
 * by item; its other fields come along). @public
 */
export interface NormalizedTest {
  readonly id: string;
  readonly story_ids: readonly string[];
  readonly requirement_ids: readonly string[];
  readonly controls?: readonly string[];
  readonly status: 'passed' | 'failed' | 'skipped' | 'unknown';
  /** `"brownfield-adoption"` on a test an adoption harvested. */
  readonly source?: string;
}

/** True for a test that stands for a test level of rstack-agents' shape. @internal */
export function isTestLevel(test: NormalizedTest): boolean {
  return test.status === 'unknown';
}

/** `test_report.json`, normalized. @public */
export interface TestReportContract {
  readonly meta: ContractMetadata;
  readonly tests: readonly NormalizedTest[];
  /** Failed tests the shape counts without naming them (rstack-agents' `results.failed`). */
  readonly unnamedFailures: number;
  /** False when the report says (or, harvested, implies) that the tests were detected, not run. */
  readonly executed: boolean;
}

/** Reads test_report.json in its canonical shape or in rstack-agents' shape. @internal */
export function readTestReport(input: unknown): ContractRead<TestReportContract> {
  if (
    !hasKey(input, 'test_cases') &&
    ['test_files', 'results', 'test_levels', 'executed'].some((key) => hasKey(input, key))
  ) {
    return readWith(rstackTestReportSchema, input, (parsed) => {
      const meta = metadataOf(parsed);
      const tests = Object.entries(parsed.test_levels ?? {}).map(
        ([level, entry]): NormalizedTest => ({
          id: `test_levels.${level}`,
          story_ids: entry.stories_covered ?? NO_ITEMS,
          requirement_ids: entry.requirements_covered ?? NO_ITEMS,
          status: 'unknown',
        }),
      );
      const ran =
        parsed.results !== undefined && ((parsed.results.passed ?? 0) > 0 || (parsed.results.failed ?? 0) > 0);
      return {
        meta,
        tests,
        unnamedFailures: parsed.results?.failed ?? 0,
        executed: parsed.executed ?? (meta.harvested ? ran : true),
      };
    });
  }
  return readWith(testReportSchema, input, canonicalTestReport, isCanonicalTestReport);
}

// The normalized report of the canonical shape, from its metadata, its normalized tests and its `executed` field.
function testReportOf(meta: ContractMetadata, tests: NormalizedTest[], executed: unknown): TestReportContract {
  const ran = tests.some((test) => test.status !== 'skipped');
  return {
    meta,
    tests,
    unnamedFailures: 0,
    executed: typeof executed === 'boolean' ? executed : meta.harvested ? ran : true,
  };
}

// The canonical shape, as read in place or as zod parsed it: its own list of test cases (a canonical case is already normal).
function canonicalTestReport(parsed: z.output<typeof testReportSchema>): TestReportContract {
  return testReportOf(metadataOf(parsed), parsed.test_cases, parsed.executed);
}
