import { describe, expect, it } from 'vitest';
import type { GapModel } from '../../src/fix-loop/contracts/gap.js';
import { FixLoopOrchestrator } from '../../src/fix-loop/fix-loop-orchestrator.js';
import { createFakeCommandRunner } from '../../src/testing/fake-command-runner.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { BUILD, fixingSource, simulate, startInput, TEST } from './helpers.js';
import { ON_PATH, project, sense } from './sense.js';

// The measure step from the commands' output: build error lines, the test runner's summary, a command not found, and
// a session with no command to measure.

describe('fix-loop sensing: probe and measure', () => {
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
