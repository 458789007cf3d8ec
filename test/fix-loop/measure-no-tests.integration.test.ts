import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GapModel } from '../../src/fix-loop/contracts/gap.js';
import { FixLoopOrchestrator } from '../../src/fix-loop/fix-loop-orchestrator.js';
import { createExecaCommandRunner } from '../../src/node/command-runner.js';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import type { CommandRunner } from '../../src/ports/command-runner.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import {
  createFakeCommandRunner,
  type FakeCommandRule,
  type FakeCommandRunner,
} from '../../src/testing/fake-command-runner.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { fixingSource, simulate, startInput, TEST } from './helpers.js';

// A passing test command that ran no test is no convergence: the measurement names it as a missing requirement.

const ON_PATH: FakeCommandRule = { match: /^command -v /, respond: { exitCode: 0 } };
const NO_TESTS = `the test command ran no tests: ${TEST}`;

// Probes and measures a test-only session; returns the measure step and the gap it recorded.
async function measure(fs: FileSystem, commands: CommandRunner, input: Record<string, unknown> = {}) {
  const sim = simulate([]);
  const fixer = new FixLoopOrchestrator({
    fs,
    dir: 'sessions',
    commands,
    candidates: fixingSource(sim),
    applier: sim.applier,
    clock: createManualClock(0),
  });
  const { sessionId } = await fixer.start(startInput({ buildCommand: undefined, ...input }));
  const probe = await fixer.step(sessionId);
  expect(probe.status).toBe('running');
  const step = await fixer.step(sessionId);
  return { step, gap: (await fixer.get(sessionId)).gap as GapModel };
}

// A test command answering with this exit code and output, which first writes `report` to ws/report.xml.
function testRun(fs: FileSystem, exitCode: number, stdoutTail = '', report?: string): FakeCommandRunner {
  return createFakeCommandRunner([
    ON_PATH,
    {
      match: TEST,
      respond: async () => {
        if (report !== undefined) await fs.writeText('ws/report.xml', report);
        return { exitCode, stdoutTail };
      },
    },
  ]);
}

const memory = () => createMemoryFileSystem({ files: { 'ws/package.json': '{}' } });
const junitReport = { testReport: { format: 'junit', path: 'report.xml' } };

describe('fix-loop measurement: a test run that counts no test', () => {
  it.each([
    ['an empty JUnit report', '<testsuite/>'],
    ['a JUnit report with every test skipped', '<testsuite><testcase name="a"><skipped/></testcase></testsuite>'],
  ])('%s with exit 0 escalates infra_gap instead of converging', async (_, report) => {
    const fs = memory();
    const { step, gap } = await measure(fs, testRun(fs, 0, '', report), junitReport);
    expect(gap.requirements.missing).toEqual([NO_TESTS]);
    expect(gap.gap).toBe(1);
    expect(step).toMatchObject({ status: 'escalated', escalation: { escalation_reason: 'infra_gap' } });
  });

  it.each([
    ['Jest', 'Tests:       0 total\n'],
    ['node --test', '# tests 0\n# pass 0\n# fail 0\n'],
  ])('a %s summary counting 0 tests with exit 0 is a missing requirement', async (_, summary) => {
    const fs = memory();
    const { step, gap } = await measure(fs, testRun(fs, 0, summary));
    expect(gap.requirements.missing).toEqual([NO_TESTS]);
    expect(step.status).toBe('escalated');
  });

  it('a run counting 0 tests that exits non-zero is a test failure to fix, not a missing requirement', async () => {
    const fs = memory();
    const { step, gap } = await measure(fs, testRun(fs, 1, 'Tests:       0 total\n'));
    expect(gap).toMatchObject({ tests: { failed: 1, passed: 0, total: 1 }, requirements: { missing: [] } });
    expect(step.status).toBe('running');
  });

  it('with neither a report nor a summary, the exit code alone decides: exit 0 converges', async () => {
    const fs = memory();
    const { step, gap } = await measure(fs, testRun(fs, 0, 'all good\n'));
    expect(gap).toMatchObject({ tests: { failed: 0, passed: 0, total: 0 }, requirements: { missing: [] }, gap: 0 });
    expect(step.status).toBe('converged');
    // Its summary says the exit code decided, not "0 passed of 0".
    expect(step.description).toContain('tests: passed by exit code (no report or runner summary counted them)');
    const failing = await measure(fs, testRun(fs, 2, 'boom\n'));
    expect(failing.step.description).toContain('tests: failed by exit code');
  });

  it('a real shell command writing <testsuite/> and exiting 0 does not converge', async () => {
    const root = await mkdtemp(join(tmpdir(), 'fix-loop-no-tests-'));
    try {
      await mkdir(join(root, 'ws'));
      const command = 'echo "<testsuite/>" > report.xml';
      const { step, gap } = await measure(createNodeFileSystem(root), createExecaCommandRunner(), {
        ...junitReport,
        testCommand: command,
      });
      expect(gap.requirements.missing).toEqual([`the test command ran no tests: ${command}`]);
      expect(step).toMatchObject({ status: 'escalated', escalation: { escalation_reason: 'infra_gap' } });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
