import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/fix-loop/contracts/audit.js';
import { FixLoopOrchestrator } from '../../src/fix-loop/fix-loop-orchestrator.js';
import type { CandidateApplier } from '../../src/fix-loop/host-ports.js';
import type { FixLoopOrchestratorOptions } from '../../src/fix-loop/options.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import { createFakeCommandRunner } from '../../src/testing/fake-command-runner.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { jsonLines } from '../runtime/helpers.js';
import { memoryProject, type Simulated, simulate, simulatedOptions, startInput, TEST } from './helpers.js';

const DIR = 'sessions';

function orchestrator(sim: Simulated, fs: FileSystem, extra: Partial<FixLoopOrchestratorOptions> = {}) {
  return new FixLoopOrchestrator({ ...simulatedOptions(sim, fs, DIR), ...extra });
}

const kinds = (entries: readonly AuditEntry[]) =>
  entries.map((entry) => `${entry.step_index}:${entry.action_type}${entry.interrupted === true ? '!' : ''}`);

describe('fix-loop sessions under concurrency, aborts and listeners', () => {
  it('a session stepped by two callers at once: one gets RUN_LOCKED, the other steps', async () => {
    const sim = simulate(['a']);
    let release = (): void => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let arrived = (): void => {};
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    const commands = createFakeCommandRunner([
      {
        match: /^command -v /,
        respond: async () => {
          arrived();
          await held;
          return { exitCode: 0 };
        },
      },
    ]);
    const fs = memoryProject();
    const first = orchestrator(sim, fs, { commands });
    const second = orchestrator(sim, fs, { commands });
    const { sessionId } = await first.start(startInput());
    const stepping = first.step(sessionId);
    await reached;
    await expect(second.step(sessionId)).rejects.toMatchObject({ name: 'GoalLoopError', code: 'RUN_LOCKED' });
    release();
    expect(await stepping).toMatchObject({ action: 'probe', status: 'running' });
    expect(await second.step(sessionId)).toMatchObject({ stepIndex: 1 });
  });

  it('an abort mid-measure leaves the step in progress; the next step records it interrupted and measures again', async () => {
    const sim = simulate(['a']);
    const fs = memoryProject();
    const controller = new AbortController();
    const aborting = createFakeCommandRunner([
      { match: /^command -v /, respond: { exitCode: 0 } },
      { match: /.*/, respond: () => controller.abort(new Error('stop')) as never },
    ]);
    const first = orchestrator(sim, fs, { commands: aborting, signal: controller.signal });
    const { sessionId } = await first.start(startInput());
    await first.step(sessionId);
    await expect(first.step(sessionId)).rejects.toThrow('stop');
    expect((await first.get(sessionId)).state.step_in_progress).toEqual({ step_index: 1, action: 'measure' });

    const resumed = await orchestrator(sim, fs).step(sessionId);
    expect(resumed).toMatchObject({
      stepIndex: 2,
      action: 'measure',
      interrupted: { step_index: 1, interrupted: true },
    });
    const audit = (await jsonLines(fs, `${DIR}/${sessionId}/audit.jsonl`)) as AuditEntry[];
    expect(kinds(audit)).toEqual(['0:probe', '1:measure!', '2:measure']);
  });

  it('a step cut off while applying never applies that candidate again', async () => {
    const sim = simulate(['a', 'b']);
    const fs = memoryProject();
    const controller = new AbortController();
    const calls: string[] = [];
    // The first apply call is cut off before it changes anything; the next ones apply.
    const applier: CandidateApplier = {
      apply: async (candidate, context) => {
        calls.push(candidate.description);
        if (calls.length === 1) {
          controller.abort(new Error('killed while applying'));
          return { applied: false, detail: 'never returned' };
        }
        return sim.applier.apply(candidate, context);
      },
    };
    const first = orchestrator(sim, fs, { signal: controller.signal, applier });
    const { sessionId } = await first.start(startInput());
    await first.step(sessionId);
    await first.step(sessionId);
    await expect(first.step(sessionId)).rejects.toThrow('killed while applying');

    const result = await orchestrator(sim, fs, { applier }).runToCompletion(sessionId);
    expect(result.status).toBe('converged');
    expect(calls).toEqual(['fix a', 'fix b', 'fix a (alternate)']);
    expect(kinds(result.audit)).toEqual([
      '0:probe',
      '1:measure',
      '2:test_iteration!',
      '3:measure',
      '4:test_iteration',
      '5:test_iteration',
    ]);
    const { attempts } = (await orchestrator(sim, fs).get(sessionId)).state;
    expect(attempts[0]).toMatchObject({ candidate_description: 'fix a', outcome: 'interrupted', gap_after: null });
  });

  it('runToCompletion cuts off the step in flight once the wall time is spent and escalates wall_time', async () => {
    const sim = simulate(['a', 'b', 'c']);
    const clock = createManualClock(0);
    const slow = createFakeCommandRunner([
      { match: /^command -v /, respond: { exitCode: 0 } },
      {
        match: TEST,
        respond: async (command, options) => {
          clock.advance(1_000);
          return sim.commands.run(command, options);
        },
      },
    ]);
    const fixer = orchestrator(sim, memoryProject(), { commands: slow, clock });
    const { sessionId } = await fixer.start(startInput({ buildCommand: undefined }));
    const result = await fixer.runToCompletion(sessionId, { maxWallMs: 1_500 });
    expect(result).toMatchObject({
      status: 'escalated',
      stepsTaken: 4,
      escalation: { escalation_reason: 'wall_time' },
    });
    // The iteration's second test run passes the budget (2 000 ms): the step is cut off, recorded as interrupted.
    expect(kinds(result.audit)).toEqual(['0:probe', '1:measure', '2:test_iteration!', '3:escalate']);
    expect(result.escalation?.detail).toMatch(/wall-time budget of 1500 ms was spent during step 3, which was cut off/);
    await expect(fixer.runToCompletion(sessionId, { maxWallMs: -1 })).rejects.toMatchObject({
      code: 'INVALID_OPTIONS',
    });
  });

  it('tells listeners every audit entry as it is appended; a throwing listener breaks nothing', async () => {
    const sim = simulate(['a']);
    const seen: number[] = [];
    const fixer = orchestrator(sim, memoryProject(), {
      onEvent: (entry) => {
        seen.push(entry.step_index);
        throw new Error('listener fault');
      },
      onListenerError: () => undefined,
    });
    const { sessionId } = await fixer.start(startInput());
    const result = await fixer.runToCompletion(sessionId);
    expect(result.status).toBe('converged');
    expect(seen).toEqual([0, 1, 2]);
    expect((await fixer.get(sessionId, { auditTail: 2 })).auditTail.map((entry) => entry.step_index)).toEqual([1, 2]);
  });
});
