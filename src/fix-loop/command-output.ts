// Reading counts out of build and test output when no machine-readable report is configured.

/** Test counts read from a test runner's output or report. @internal */
export interface TestCounts {
  readonly failed: number;
  readonly passed: number;
  readonly total: number;
}

/** One runner's summary line(s): a pattern and how its match gives the counts. */
interface SummaryReader {
  readonly runner: string;
  readonly read: (output: string) => TestCounts | null;
}

// The last match of a global pattern, or null.
function lastMatch(output: string, pattern: RegExp): RegExpMatchArray | null {
  let last: RegExpMatchArray | null = null;
  for (const match of output.matchAll(pattern)) last = match;
  return last;
}

// The number a `<word> <n>` or `<n> <word>` part of a summary line gives (0 when absent or not a safe integer).
function countIn(line: string, pattern: RegExp): number {
  return safe(line.match(pattern)?.[1]);
}

// A run of digits as a count: 0 when absent or too large to be exact (the record holds safe integers only).
function safe(digits: string | undefined): number {
  const value = digits === undefined ? 0 : Number(digits);
  return Number.isSafeInteger(value) ? value : 0;
}

// The summaries test runners print, most specific first: node --test (TAP `# fail 1`, spec `ℹ fail 1`),
// Jest (`Tests: 1 failed, 2 passed, 3 total`), Vitest (`Tests  1 failed | 2 passed (3)`), Mocha (`2 passing`).
const READERS: readonly SummaryReader[] = [
  {
    runner: 'node --test',
    read: (output) => {
      const tests = lastMatch(output, /^[#ℹ]\s*tests\s+(\d+)\s*$/gmu);
      if (tests === null) return null;
      const tail = output.slice(tests.index);
      const passed = countIn(tail, /^[#ℹ]\s*pass\s+(\d+)\s*$/mu);
      const failed = countIn(tail, /^[#ℹ]\s*fail\s+(\d+)\s*$/mu);
      return { failed, passed, total: safe(tests[1]) };
    },
  },
  {
    runner: 'jest',
    read: (output) => {
      const line = lastMatch(output, /^\s*Tests:\s+(.*\d+ total.*)$/gm)?.[1];
      if (line === undefined) return null;
      return {
        failed: countIn(line, /(\d+) failed/),
        passed: countIn(line, /(\d+) passed/),
        total: countIn(line, /(\d+) total/),
      };
    },
  },
  {
    runner: 'vitest',
    read: (output) => {
      const line = lastMatch(output, /^\s*Tests\s+(.*\(\d+\))\s*$/gm)?.[1];
      if (line === undefined) return null;
      return {
        failed: countIn(line, /(\d+) failed/),
        passed: countIn(line, /(\d+) passed/),
        total: countIn(line, /\((\d+)\)/),
      };
    },
  },
  {
    runner: 'mocha',
    read: (output) => {
      const passing = lastMatch(output, /^\s*(\d+) passing\b/gm);
      if (passing === null) return null;
      const failed = countIn(output.slice(passing.index), /^\s*(\d+) failing\b/m);
      const passed = safe(passing[1]);
      return { failed, passed, total: passed + failed };
    },
  },
];

/** The test counts a runner printed in its summary, or `null`. @internal */
export function testCountsFromOutput(output: string): TestCounts | null {
  for (const reader of READERS) {
    const counts = reader.read(output);
    if (counts !== null) return counts;
  }
  return null;
}

/** Counts reconciled with the exit code: a non-zero exit has at least one failure. @internal */
export function reconcileCounts(counts: TestCounts | null, exitCode: number | null): TestCounts {
  const failedExit = exitCode !== 0;
  const failed = Math.max(counts?.failed ?? 0, failedExit ? 1 : 0);
  const passed = counts?.passed ?? 0;
  return { failed, passed, total: Math.min(Number.MAX_SAFE_INTEGER, Math.max(counts?.total ?? 0, failed + passed)) };
}

/** How many `error` lines a failing build printed (npm's own lines left aside). @internal */
export function countBuildErrors(output: string): number {
  let count = 0;
  for (const line of output.split('\n')) {
    if (/^\s*npm (error|ERR!)/i.test(line)) continue;
    if (/\berror\b/i.test(line)) count += 1;
  }
  return count;
}
