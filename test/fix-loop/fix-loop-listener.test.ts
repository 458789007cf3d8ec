import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuditEntry } from '../../src/fix-loop/contracts/audit.js';
import { FixLoopOrchestrator } from '../../src/fix-loop/fix-loop-orchestrator.js';
import type { FixLoopOrchestratorOptions } from '../../src/fix-loop/options.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { fixingSource, memoryProject, simulate, startInput } from './helpers.js';

// The orchestrator's onEvent listener is the host's code: what it throws goes to onListenerError (by default one
// console.warn line) and never changes the step's result, the audit log or the session's record.

const DIR = 'sessions';
const ID = 'listened';

async function runWith(extra: Partial<FixLoopOrchestratorOptions>) {
  const fs = memoryProject();
  const sim = simulate(['a', 'b'], 1);
  const fixer = new FixLoopOrchestrator({
    fs,
    dir: DIR,
    commands: sim.commands,
    candidates: fixingSource(sim),
    applier: sim.applier,
    clock: createManualClock(Date.UTC(2026, 0, 1)),
    ...extra,
  });
  await fixer.start(startInput({ sessionId: ID }));
  const result = await fixer.runToCompletion(ID);
  const files = {
    audit: await fs.readText(`${DIR}/${ID}/audit.jsonl`),
    state: await fs.readText(`${DIR}/${ID}/state.json`),
  };
  return { result, files, applied: sim.applied };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('FixLoopOrchestrator onEvent listener errors', () => {
  it('a throwing listener changes neither the result nor audit.jsonl nor state.json; each throw goes to onListenerError', async () => {
    const quiet = await runWith({});
    const reported: [unknown, AuditEntry][] = [];
    const faulty = await runWith({
      onEvent: (entry) => {
        throw new Error(`listener fault at ${entry.step_index}`);
      },
      onListenerError: (error, entry) => reported.push([error, entry]),
    });
    expect(faulty.result).toEqual(quiet.result);
    expect(faulty.files).toEqual(quiet.files);
    expect(faulty.applied).toEqual(quiet.applied);
    expect(quiet.result.status).toBe('converged');
    expect(reported.map(([, entry]) => entry)).toEqual(quiet.result.audit);
    expect(reported.map(([error]) => (error as Error).message)).toEqual(
      quiet.result.audit.map((entry) => `listener fault at ${entry.step_index}`),
    );
  });

  it('by default warns one line per throw naming the entry, and a throwing onListenerError breaks nothing either', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const quiet = await runWith({});
    const warned = await runWith({
      onEvent: () => {
        throw new Error('boom');
      },
    });
    expect(warned.files).toEqual(quiet.files);
    expect(warn).toHaveBeenCalledTimes(quiet.result.audit.length);
    expect(warn.mock.calls[0]?.[0]).toBe(
      'goal-loop: the FixLoopOrchestrator onEvent listener threw on probe (seq 0): boom. ' +
        'The run went on; pass onListenerError to handle this yourself.',
    );

    const doubly = await runWith({
      onEvent: () => {
        throw new Error('boom');
      },
      onListenerError: () => {
        throw new Error('the handler too');
      },
    });
    expect(doubly.result).toEqual(quiet.result);
    expect(doubly.files).toEqual(quiet.files);
  });

  it('refuses an onListenerError that is not a function, naming it', () => {
    const sim = simulate([]);
    const options = {
      fs: memoryProject(),
      dir: DIR,
      commands: sim.commands,
      candidates: fixingSource(sim),
      applier: sim.applier,
      onListenerError: 'log it',
    } as unknown as FixLoopOrchestratorOptions;
    expect(() => new FixLoopOrchestrator(options)).toThrow(/onListenerError: onListenerError must be a function/);
  });
});
