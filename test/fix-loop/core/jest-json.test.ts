import { describe, expect, it } from 'vitest';
import { formatIssue } from '../../../src/errors.js';
import { readJestJsonReport } from '../../../src/fix-loop/core/jest-json.js';
import { MAX_FAILURE_MESSAGE_CHARS } from '../../../src/fix-loop/core/test-report.js';

// The shape Vitest's json reporter writes (trimmed): one file that ran, one that failed to load.
const vitest = {
  numTotalTestSuites: 3,
  numTotalTests: 5,
  numPassedTests: 1,
  numFailedTests: 2,
  numPendingTests: 1,
  numTodoTests: 1,
  success: false,
  testResults: [
    {
      name: '/w/a.test.mjs',
      status: 'failed',
      message: '',
      assertionResults: [
        { ancestorTitles: [], fullName: 'adds', status: 'passed', title: 'adds', failureMessages: [] },
        {
          ancestorTitles: [],
          fullName: 'fails',
          status: 'failed',
          title: 'fails',
          failureMessages: ['expected 2 to be 3'],
        },
        { ancestorTitles: [], fullName: 'skipped one', status: 'skipped', title: 'skipped one', failureMessages: [] },
        { ancestorTitles: [], fullName: 'todo one', status: 'todo', title: 'todo one', failureMessages: [] },
        {
          ancestorTitles: ['group'],
          fullName: 'group inner fail',
          status: 'failed',
          title: 'inner fail',
          failureMessages: ['Error: boom', 'second'],
        },
      ],
    },
    {
      name: '/w/b.test.mjs',
      status: 'failed',
      message: "Cannot find module './missing.js'",
      assertionResults: [],
    },
  ],
};

// The shape `jest --json` writes (trimmed).
const jest = {
  numFailedTests: 0,
  numPassedTests: 3,
  numPendingTests: 0,
  numTotalTests: 3,
  testResults: [
    {
      name: '/w/sum.test.js',
      status: 'passed',
      message: '',
      assertionResults: [
        { title: 'a', fullName: 'a', status: 'passed', failureMessages: [] },
        { title: 'b', fullName: 'b', status: 'passed', failureMessages: null },
        { title: 'c', status: 'passed' },
      ],
    },
  ],
};

const read = (value: unknown) => readJestJsonReport(JSON.stringify(value));

describe('readJestJsonReport', () => {
  it('reads a Vitest report, counting a file that failed to load as a failed test', () => {
    const result = read(vitest);
    expect(result).toEqual({
      success: true,
      issues: [],
      data: {
        failed: 3,
        passed: 1,
        skipped: 2,
        total: 6,
        failures: [
          { name: 'fails', message: 'expected 2 to be 3' },
          { name: 'group > inner fail', message: 'Error: boom\nsecond' },
          { name: '/w/b.test.mjs', message: "Cannot find module './missing.js'" },
        ],
      },
    });
  });

  it('reads a passing Jest report', () => {
    expect(read(jest)).toMatchObject({
      success: true,
      data: { failed: 0, passed: 3, skipped: 0, total: 3, failures: [] },
    });
  });

  it('names a test by its full name when it has no title', () => {
    const report = {
      ...jest,
      numFailedTests: 1,
      testResults: [{ assertionResults: [{ fullName: 'suite works', status: 'failed', failureMessages: ['x'] }] }],
    };
    expect(read(report)).toMatchObject({ data: { failures: [{ name: 'suite works', message: 'x' }] } });
  });

  it('bounds a long failure message', () => {
    const long = {
      ...vitest,
      testResults: [
        {
          ...vitest.testResults[0],
          assertionResults: [{ title: 't', status: 'failed', failureMessages: ['y'.repeat(10_000)] }],
        },
      ],
    };
    const result = read(long);
    expect(result.success && result.data.failures[0]?.message.length).toBe(MAX_FAILURE_MESSAGE_CHARS);
  });

  it('fails on text that is not JSON', () => {
    expect(readJestJsonReport('<testsuite/>')).toMatchObject({
      success: false,
      issues: [{ code: 'invalid_json', path: [] }],
    });
  });

  it('names the JSON path of each part of another shape', () => {
    const wrong = {
      numFailedTests: -1,
      numPassedTests: '3',
      numTotalTests: 3,
      testResults: [{ assertionResults: [{ title: 't' }] }],
    };
    const lines = (read(wrong).issues ?? []).map(formatIssue);
    expect(lines).toEqual([
      expect.stringMatching(/^\$\.numFailedTests: /),
      expect.stringMatching(/^\$\.numPassedTests: /),
      expect.stringMatching(/^\$\.testResults\[0\]\.assertionResults\[0\]\.status: /),
    ]);
    expect(read([]).issues.map(formatIssue)).toEqual([expect.stringMatching(/^\$: .*object/)]);
  });

  it('reads JSON nested 10,000 deep in an ignored field without a stack overflow', () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const text = JSON.stringify(jest).replace('"numTotalTests"', `"extra":${deep},"numTotalTests"`);
    expect(readJestJsonReport(text).success).toBe(true);
  });
});
