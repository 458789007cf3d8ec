import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countBuildErrors, reconcileCounts, testCountsFromOutput } from '../../src/fix-loop/command-output.js';
import { programOf } from '../../src/fix-loop/environment-probe.js';

describe('reading counts from command output', () => {
  it('reads the summaries of node --test (TAP and spec), Jest, Vitest and Mocha', () => {
    expect(testCountsFromOutput('ok 1 - a\n# tests 3\n# suites 0\n# pass 1\n# fail 2\n')).toEqual({
      failed: 2,
      passed: 1,
      total: 3,
    });
    expect(testCountsFromOutput('✔ a\nℹ tests 4\nℹ pass 4\nℹ fail 0\n')).toEqual({ failed: 0, passed: 4, total: 4 });
    expect(testCountsFromOutput('Tests:       1 failed, 1 skipped, 7 passed, 9 total\n')).toEqual({
      failed: 1,
      passed: 7,
      total: 9,
    });
    expect(testCountsFromOutput(' Test Files  1 failed (2)\n      Tests  2 failed | 5 passed (7)\n')).toEqual({
      failed: 2,
      passed: 5,
      total: 7,
    });
    expect(testCountsFromOutput('  5 passing (20ms)\n  1 failing\n')).toEqual({ failed: 1, passed: 5, total: 6 });
    expect(testCountsFromOutput('all good')).toBeNull();
  });

  it('takes the last summary when a runner printed several (watch reruns, nested runs)', () => {
    expect(testCountsFromOutput('# tests 9\n# pass 0\n# fail 9\n...\n# tests 2\n# pass 2\n# fail 0\n')).toEqual({
      failed: 0,
      passed: 2,
      total: 2,
    });
  });

  it('never throws and never returns a negative or non-integer count, whatever the output (property)', () => {
    const line = fc.oneof(
      fc.string(),
      fc.nat().map((n) => `# fail ${n}`),
      fc.nat().map((n) => `# tests ${n}`),
      fc.nat().map((n) => `Tests: ${n} failed, ${n} total`),
      fc.nat().map((n) => `${n} passing`),
      fc.stringMatching(/^[0-9]{15,25}$/).map((digits) => `# tests ${digits}\n# fail ${digits}`),
    );
    fc.assert(
      fc.property(fc.array(line), fc.option(fc.integer({ min: -1, max: 255 })), (lines, exit) => {
        const counts = reconcileCounts(testCountsFromOutput(lines.join('\n')), exit);
        for (const value of Object.values(counts)) expect(Number.isSafeInteger(value) && value >= 0).toBe(true);
        expect(counts.total).toBeGreaterThanOrEqual(counts.failed);
        if (exit !== 0) expect(counts.failed).toBeGreaterThanOrEqual(1);
      }),
    );
  });

  it('reconciles counts with the exit code: a failing run has a failure even when no count says so', () => {
    expect(reconcileCounts(null, 0)).toEqual({ failed: 0, passed: 0, total: 0 });
    expect(reconcileCounts(null, null)).toEqual({ failed: 1, passed: 0, total: 1 });
    expect(reconcileCounts({ failed: 0, passed: 3, total: 3 }, 1)).toEqual({ failed: 1, passed: 3, total: 4 });
    expect(reconcileCounts({ failed: 2, passed: 3, total: 3 }, 1)).toEqual({ failed: 2, passed: 3, total: 5 });
  });

  it('counts the lines of a build that say error, leaving npm aside', () => {
    const output = [
      'src/a.ts(3,7): error TS2322: Type string is not assignable',
      'src/b.ts(1,1): error TS2304: Cannot find name x',
      'Found 2 errors in 2 files.',
      'SyntaxError: Unexpected token',
      'npm error code 2',
      'npm ERR! lifecycle',
    ].join('\n');
    expect(countBuildErrors(output)).toBe(2);
    expect(countBuildErrors('')).toBe(0);
  });

  it('finds the program a command line runs first', () => {
    expect(programOf('npm test')).toBe('npm');
    expect(programOf('  CI=1 NODE_ENV=test npx vitest run')).toBe('npx');
    expect(programOf('"./node_modules/.bin/tsc" -p .')).toBe('./node_modules/.bin/tsc');
    expect(programOf("'my runner' --all")).toBe('my runner');
    expect(programOf('   ')).toBeNull();
    expect(programOf('A=1')).toBeNull();
  });
});
