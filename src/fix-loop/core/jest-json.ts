import { z } from 'zod';
import { issuesFromZod, type ParseResult, parseJsonText } from '../../errors.js';
import { boundMessage, type TestFailure, type TestReport } from './test-report.js';

const count = z.number().int().nonnegative();

const assertionSchema = z.looseObject({
  title: z.string().optional(),
  fullName: z.string().optional(),
  ancestorTitles: z.array(z.string()).optional(),
  status: z.string(),
  failureMessages: z.array(z.string()).nullable().optional(),
});

const fileSchema = z.looseObject({
  name: z.string().optional(),
  status: z.string().optional(),
  message: z.string().optional(),
  assertionResults: z.array(assertionSchema),
});

// The part of the Jest and Vitest JSON reports (`--json`, `--reporter=json`) a gap is read from.
const jestReportSchema = z.looseObject({
  numFailedTests: count,
  numPassedTests: count,
  numTotalTests: count,
  numPendingTests: count.optional(),
  numTodoTests: count.optional(),
  testResults: z.array(fileSchema),
});

type Assertion = z.infer<typeof assertionSchema>;
type FileResult = z.infer<typeof fileSchema>;

// A test's name: its describe blocks and title joined by " > ", as the JUnit reader names them.
function testName(assertion: Assertion): string {
  if (assertion.title === undefined) return assertion.fullName ?? '(unnamed test)';
  return [...(assertion.ancestorTitles ?? []), assertion.title].join(' > ');
}

// A file that failed without a failed test in it: it failed to load or to run.
const failedToRun = (file: FileResult): boolean =>
  file.status === 'failed' &&
  (file.message ?? '').trim() !== '' &&
  !file.assertionResults.some((assertion) => assertion.status === 'failed');

/**
 * Reads a Jest or Vitest JSON report (`jest --json`,
 * `vitest --reporter=json`; both write `numFailedTests`, `numPassedTests`,
 * `numTotalTests` and `testResults[].assertionResults[]`): the counts as the
 * runner gives them, skipped = pending + todo, one failure per failed
 * assertion result (describe blocks and title joined by ` > `, the failure
 * messages joined); a test file that failed without a failed test in it (it
 * failed to load) counts as one more failed test named by the file, with its
 * message, since neither runner counts it. Text that is not JSON, or JSON of
 * another shape, fails with issues naming the JSON path
 * (`$.testResults[0].assertionResults`). Never throws. Pure.
 *
 * @example
 * ```ts
 * import { formatIssue } from 'goal-loop/contracts';
 *
 * const read = readJestJsonReport(await readFile('reports/vitest.json', 'utf8'));
 * if (read.success) console.log(`${read.data.failed} of ${read.data.total} failed`);
 * else console.error(read.issues.map(formatIssue).join('\n'));
 * ```
 * @public
 */
export function readJestJsonReport(text: string): ParseResult<TestReport> {
  if (typeof text !== 'string') {
    const message = `Not a readable Jest or Vitest JSON report: expected the report's text, got ${typeof text}`;
    return { success: false, issues: [{ code: 'invalid_type', path: [], message }] };
  }
  const json = parseJsonText(text);
  if (!json.ok) return { success: false, issues: [json.issue] };
  let parsed: ReturnType<typeof jestReportSchema.safeParse>;
  try {
    parsed = jestReportSchema.safeParse(json.value);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return {
      success: false,
      issues: [{ code: 'unreadable', path: [], message: `The report cannot be read (${why})` }],
    };
  }
  if (!parsed.success) return { success: false, issues: issuesFromZod(parsed.error) };
  const report = parsed.data;
  const failures: TestFailure[] = [];
  let unloaded = 0;
  for (const file of report.testResults) {
    for (const assertion of file.assertionResults) {
      if (assertion.status !== 'failed') continue;
      failures.push({ name: testName(assertion), message: boundMessage((assertion.failureMessages ?? []).join('\n')) });
    }
    if (failedToRun(file)) {
      unloaded += 1;
      failures.push({ name: file.name ?? '(unnamed test file)', message: boundMessage(file.message ?? '') });
    }
  }
  return {
    success: true,
    data: {
      failed: report.numFailedTests + unloaded,
      passed: report.numPassedTests,
      skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
      total: report.numTotalTests + unloaded,
      failures,
    },
    issues: [],
  };
}
