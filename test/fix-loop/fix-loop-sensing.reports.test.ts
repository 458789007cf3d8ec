import { describe, expect, it } from 'vitest';
import type { FakeCommandRule } from '../../src/testing/fake-command-runner.js';
import { BUILD, TEST } from './helpers.js';
import { ON_PATH, project, sense } from './sense.js';

// The measure step from a test report the test command writes: JUnit, Jest JSON, or none at all.

const junit = (failed: number, passed: number) =>
  `<?xml version="1.0"?><testsuites><testsuite name="s">${'<testcase name="ok"/>'.repeat(passed)}${'<testcase name="bad"><failure message="boom">trace</failure></testcase>'.repeat(failed)}</testsuite></testsuites>`;

describe('fix-loop sensing: probe and measure', () => {
  it('reads a JUnit report the test command writes, after removing a stale one', async () => {
    const fs = project({ 'ws/out/junit.xml': junit(9, 9) });
    let stale: string | null = 'unread';
    const { gap, state } = await sense(
      [
        ON_PATH,
        { match: BUILD, respond: { exitCode: 0 } },
        {
          match: TEST,
          respond: async () => {
            stale = await fs.readText('ws/out/junit.xml');
            await fs.writeText('ws/out/junit.xml', junit(2, 3));
            return { exitCode: 1, stdoutTail: '# tests 1\n# pass 1\n# fail 0\n' };
          },
        },
      ],
      { fs, input: { testReport: { format: 'junit', path: 'out/junit.xml' } } },
    );
    expect(stale).toBeNull();
    expect(gap.tests).toEqual({ failed: 2, passed: 3, total: 5 });
    expect(state.last_failure_output).toContain('✗ s > bad\nboom');
  });

  it('reads a Jest JSON report; a report that does not parse escalates infra_gap naming its path', async () => {
    const report = (text: string): FakeCommandRule => ({
      match: TEST,
      respond: async () => {
        await jsonFs.writeText('ws/report.json', text);
        return { exitCode: 1 };
      },
    });
    const jsonFs = project();
    const input = { buildCommand: undefined, testReport: { format: 'jest-json', path: 'report.json' } };
    const jest = { numFailedTests: 1, numPassedTests: 2, numTotalTests: 3, testResults: [] };
    const read = await sense([ON_PATH, report(JSON.stringify(jest))], { fs: jsonFs, input });
    expect(read.gap.tests).toEqual({ failed: 1, passed: 2, total: 3 });
    const broken = await sense([ON_PATH, report('{"numFailedTests": "many"')], { fs: jsonFs, input });
    expect(broken.measure).toMatchObject({ status: 'escalated', escalation: { escalation_reason: 'infra_gap' } });
    expect(broken.gap.requirements.missing[0]).toMatch(
      /^the test report \/project\/ws\/report\.json is not a jest-json report: /,
    );
  });

  it('a report not written: a passing run escalates infra_gap, a failing run counts from its output', async () => {
    const input = { buildCommand: undefined, testReport: { format: 'junit', path: 'junit.xml' } };
    const passing = await sense([ON_PATH, { match: TEST, respond: { exitCode: 0 } }], { input });
    expect(passing.gap.requirements.missing).toEqual(['the test command wrote no report at /project/ws/junit.xml']);
    const failing = await sense(
      [ON_PATH, { match: TEST, respond: { exitCode: 1, stdoutTail: '# tests 4\n# pass 1\n# fail 3\n' } }],
      { input },
    );
    expect(failing.gap).toMatchObject({ tests: { failed: 3, passed: 1, total: 4 }, requirements: { missing: [] } });
    expect(failing.measure?.description).toMatch(
      /wrote no report at \/project\/ws\/junit\.xml, counted from the output/,
    );
  });
});
