import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/fix-loop/contracts/audit.js';
import { FixLoopOrchestrator } from '../../src/fix-loop/fix-loop-orchestrator.js';
import type { FixLoopOrchestratorOptions } from '../../src/fix-loop/options.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import type { MemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { memoryProject, type Simulated, simulate, simulatedOptions, startInput } from './helpers.js';

// An abort rejects with the signal's reason. Once the signal has fired nothing is written: no step in progress, no
// lock, no audit line, no session — so the next orchestrator finds no step cut off (no `!` in its audit log).

const DIR = 'sessions';

function orchestrator(sim: Simulated, fs: FileSystem, extra: Partial<FixLoopOrchestratorOptions> = {}) {
  return new FixLoopOrchestrator({ ...simulatedOptions(sim, fs, DIR), ...extra });
}

const kinds = (entries: readonly AuditEntry[]) =>
  entries.map((entry) => `${entry.step_index}:${entry.action_type}${entry.interrupted === true ? '!' : ''}`);

function aborted(reason: unknown): AbortSignal {
  const controller = new AbortController();
  controller.abort(reason);
  return controller.signal;
}

describe('fix-loop abort', () => {
  it('an orchestrator whose signal already fired rejects with its reason and writes nothing', async () => {
    const sim = simulate(['a']);
    const fs = memoryProject() as MemoryFileSystem;
    const { sessionId } = await orchestrator(sim, fs).start(startInput());
    await orchestrator(sim, fs).step(sessionId);
    const before = fs.snapshot();
    const commandsBefore = sim.commands.calls.length;
    const reason = new Error('shutting down');
    const stopped = orchestrator(sim, fs, { signal: aborted(reason) });

    await expect(stopped.step(sessionId)).rejects.toBe(reason);
    await expect(stopped.runToCompletion(sessionId)).rejects.toBe(reason);
    await expect(stopped.runToCompletion(sessionId, { maxWallMs: 0 })).rejects.toBe(reason);
    await expect(stopped.start(startInput({ sessionId: 'another' }))).rejects.toBe(reason);
    expect(fs.snapshot()).toEqual(before);
    expect(sim.commands.calls).toHaveLength(commandsBefore);
    // Reading is not writing: get() still answers.
    expect((await stopped.get(sessionId)).state.step_in_progress).toBeNull();

    const resumed = await orchestrator(sim, fs).runToCompletion(sessionId);
    expect(resumed.status).toBe('converged');
    expect(kinds(resumed.audit)).toEqual(['0:probe', '1:measure', '2:test_iteration']);
  });

  it('a signal fired between two steps of runToCompletion stops it before the next step writes anything', async () => {
    const sim = simulate(['a']);
    const fs = memoryProject();
    const controller = new AbortController();
    const reason = new Error('stop after the probe');
    const fixer = orchestrator(sim, fs, {
      signal: controller.signal,
      onEvent: (entry) => {
        if (entry.action_type === 'probe') controller.abort(reason);
      },
    });
    const { sessionId } = await fixer.start(startInput());
    await expect(fixer.runToCompletion(sessionId)).rejects.toBe(reason);
    const view = await fixer.get(sessionId);
    expect(view.state).toMatchObject({ step_count: 1, step_in_progress: null, status: 'running' });
    expect(kinds(view.auditTail)).toEqual(['0:probe']);

    const resumed = await orchestrator(sim, fs).runToCompletion(sessionId);
    expect(kinds(resumed.audit)).toEqual(['0:probe', '1:measure', '2:test_iteration']);
  });

  it('a step cut off mid-way by the signal is recorded as interrupted on the next call', async () => {
    const sim = simulate(['a']);
    const fs = memoryProject();
    const controller = new AbortController();
    const reason = new Error('cut off while proposing');
    const fixer = orchestrator(sim, fs, {
      signal: controller.signal,
      candidates: {
        propose: () => {
          controller.abort(reason);
          return [];
        },
      },
    });
    const { sessionId } = await fixer.start(startInput());
    await expect(fixer.runToCompletion(sessionId)).rejects.toBe(reason);
    const resumed = await orchestrator(sim, fs).runToCompletion(sessionId);
    expect(kinds(resumed.audit)).toEqual([
      '0:probe',
      '1:measure',
      '2:test_iteration!',
      '3:measure',
      '4:test_iteration',
    ]);
  });
});
