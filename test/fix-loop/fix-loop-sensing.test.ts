import { describe, expect, it } from 'vitest';
import type { GapModel } from '../../src/fix-loop/contracts/gap.js';
import { FixLoopOrchestrator } from '../../src/fix-loop/fix-loop-orchestrator.js';
import type { EnvironmentProbe } from '../../src/fix-loop/host-ports.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import { createFakeCommandRunner, type FakeCommandRule } from '../../src/testing/fake-command-runner.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { BUILD, fixingSource, simulate, startInput, TEST } from './helpers.js';

const ON_PATH: FakeCommandRule = { match: /^command -v /, respond: { exitCode: 0 } };

// Probes and measures a session with these commands and files; returns the gap after the measure step.
async function sense(
  rules: readonly FakeCommandRule[],
  options: {
    fs?: FileSystem;
    files?: Record<string, string>;
    input?: Record<string, unknown>;
    probe?: EnvironmentProbe;
  } = {},
) {
  const fs = options.fs ?? project(options.files);
  const sim = simulate([]);
  const fixer = new FixLoopOrchestrator({
    fs,
    dir: 'sessions',
    commands: createFakeCommandRunner(rules),
    candidates: fixingSource(sim),
    applier: sim.applier,
    clock: createManualClock(0),
    ...(options.probe === undefined ? {} : { probe: options.probe }),
  });
  const { sessionId } = await fixer.start(startInput(options.input));
  const probe = await fixer.step(sessionId);
  const measure = probe.status === 'running' ? await fixer.step(sessionId) : null;
  const view = await fixer.get(sessionId);
  return { fs, probe, measure, state: view.state, gap: view.gap as GapModel };
}

const project = (files: Record<string, string> = {}): FileSystem =>
  createMemoryFileSystem({ files: { 'ws/package.json': '{}', ...files } });

const junit = (failed: number, passed: number) =>
  `<?xml version="1.0"?><testsuites><testsuite name="s">${'<testcase name="ok"/>'.repeat(passed)}${'<testcase name="bad"><failure message="boom">trace</failure></testcase>'.repeat(failed)}</testsuite></testsuites>`;

describe('fix-loop sensing: probe and measure', () => {
  it('the default probe finds a program missing from PATH and node_modules missing, and escalates infra_gap', async () => {
    const { probe, gap } = await sense([{ match: "command -v 'npm'", respond: { exitCode: 1 } }], {
      files: { 'ws/package.json': '{"dependencies":{"zod":"^4"}}' },
      input: { buildCommand: 'NODE_ENV=ci "npm" run build' },
    });
    expect(probe).toMatchObject({
      action: 'probe',
      status: 'escalated',
      escalation: { escalation_reason: 'infra_gap' },
    });
    expect(gap.requirements.missing).toEqual([
      'program "npm" (of the command "NODE_ENV=ci "npm" run build") is not on PATH in /project/ws',
      'node_modules is missing in /project/ws and every folder above it, though its package.json declares dependencies (run npm ci there)',
    ]);
    expect(probe.escalation?.recommended_next_step).toMatch(/npm ci/);
    expect(probe.escalation?.detail).toBe(
      'The environment is not ready, and no code fix can make it so: ' +
        'program "npm" (of the command "NODE_ENV=ci "npm" run build") is not on PATH in /project/ws; ' +
        'node_modules is missing in /project/ws and every folder above it, though its package.json declares ' +
        'dependencies (run npm ci there). A human must set it up (for example, by running a setup script such as ' +
        '`npm ci` in the workspace).',
    );
  });

  it('the escalation detail reads as a sentence for a missing workspace too', async () => {
    const { probe } = await sense([ON_PATH], { input: { workspace: 'nope' } });
    expect(probe.escalation?.detail).toBe(
      'The environment is not ready, and no code fix can make it so: ' +
        'workspace "nope" does not exist (looked for /project/nope). A human must set it up (for example, by ' +
        'running a setup script such as `npm ci` in the workspace).',
    );
  });

  it('a probe that throws or answers nonsense is a missing requirement, not a crash', async () => {
    const throwing = await sense([ON_PATH], { probe: { probe: async () => Promise.reject(new Error('no docker')) } });
    expect(throwing.gap.requirements.missing).toEqual(['the environment probe failed: no docker']);
    const odd = await sense([ON_PATH], { probe: { probe: async () => ({ missing: 'all' }) as never } });
    expect(odd.probe.status).toBe('escalated');
  });

  it('counts build error lines, tests from the runner summary, and keeps the failure output', async () => {
    const { gap, state } = await sense([
      ON_PATH,
      {
        match: BUILD,
        respond: {
          exitCode: 2,
          stdoutTail: 'a.ts(1,1): error TS1: x\nb.ts(2,2): error TS2: y\nFound 2 errors.\n',
          stderrTail: 'npm error code 2\n',
        },
      },
      { match: TEST, respond: { exitCode: 1, stdoutTail: 'Tests:       1 failed, 4 passed, 5 total\n' } },
    ]);
    expect(gap).toEqual({
      build: { failing: true, error_count: 2 },
      tests: { failed: 1, passed: 4, total: 5 },
      requirements: { missing: [] },
      gap: 3,
    });
    expect(state.last_failure_output).toContain('$ npm run build  (exit 2)');
    expect(state.last_failure_output).toContain('$ npm test  (exit 1)');
  });

  it('a test command that fails with no summary counts one failure; a command not found is a missing requirement', async () => {
    const silent = await sense([
      ON_PATH,
      { match: BUILD, respond: { exitCode: 0 } },
      { match: TEST, respond: { exitCode: 1 } },
    ]);
    expect(silent.gap.tests).toEqual({ failed: 1, passed: 0, total: 1 });
    const gone = await sense([
      ON_PATH,
      { match: TEST, respond: { exitCode: 127, stderrTail: 'sh: 1: npm: not found\n' } },
    ]);
    expect(gone.measure?.status).toBe('escalated');
    expect(gone.gap.requirements.missing).toEqual([
      'the command "npm run build" was not found in /project/ws (exit 127: npm: command not found)',
      'the command "npm test" was not found in /project/ws (exit 127: sh: 1: npm: not found)',
    ]);
  });

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

  it('a stored session with neither a build nor a test command escalates infra_gap instead of converging on nothing', async () => {
    // start() refuses such a session; a record written before it did can still hold one.
    const fs = project();
    const sim = simulate([]);
    const fixer = new FixLoopOrchestrator({
      fs,
      dir: 'sessions',
      commands: createFakeCommandRunner([ON_PATH]),
      candidates: fixingSource(sim),
      applier: sim.applier,
      clock: createManualClock(0),
    });
    const { sessionId } = await fixer.start(startInput());
    const file = `sessions/${sessionId}/state.json`;
    const { build_command: _build, test_command: _test, ...record } = JSON.parse((await fs.readText(file)) ?? '{}');
    await fs.writeText(file, JSON.stringify(record));
    expect(await fixer.step(sessionId)).toMatchObject({ action: 'probe', status: 'running' });
    expect(await fixer.step(sessionId)).toMatchObject({
      status: 'escalated',
      escalation: { escalation_reason: 'infra_gap' },
    });
    expect(((await fixer.get(sessionId)).gap as GapModel).requirements.missing).toEqual([
      'the session has neither a build nor a test command, so no gap can be measured',
    ]);
  });
});
