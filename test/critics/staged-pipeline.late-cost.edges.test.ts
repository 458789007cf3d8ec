import { describe, expect, it, vi } from 'vitest';
import type { Generator } from '../../src/critics/options.js';
import { StagedPipeline } from '../../src/critics/staged-pipeline.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { DIR, spec } from './helpers.js';

// The edges of late costs (the abort that lands after a call settled: test/runtime/host-call.late.test.ts): a call
// that returned in time but whose record the lost lock refused, a write that fails with a value that has no text, a
// record of another execution, a critic whose cost cannot be read.

const PENDING = `${DIR}/x/spend-pending`;

// A generator whose first call waits for `release()` and then reports `firstCost`; later calls report $1 at once.
function slowFirst(firstCost: number) {
  let release: () => void = () => {};
  let entered: () => void = () => {};
  const called = new Promise<void>((resolve) => (entered = resolve));
  let calls = 0;
  const generate: Generator = async () => {
    calls += 1;
    if (calls > 1) return { output: 'fast', costUsd: 1 };
    entered();
    await new Promise<void>((resolve) => (release = resolve));
    return { output: 'slow', costUsd: firstCost };
  };
  return { generate, called, release: () => release(), calls: () => calls };
}

describe('StagedPipeline: late cost edges', () => {
  it('a call that returned in time after its lock was taken over is still counted, once', async () => {
    const fs = createMemoryFileSystem();
    const host = slowFirst(5);
    const at = (now: number) =>
      new StagedPipeline({
        fs,
        dir: DIR,
        stages: [{ id: 'plan', generate: host.generate }],
        clock: createManualClock(now),
        lockTimeoutMs: 9_000,
      });
    const first = at(0).run({ executionId: 'x', spec });
    await host.called;
    // Another process finds the lock stale, takes the execution over and makes the call again ($1).
    expect(await at(9_001).run({ executionId: 'x', spec })).toMatchObject({ status: 'completed', spentUsd: 1 });
    host.release();
    await expect(first).rejects.toMatchObject({ code: 'RUN_LOCKED' });
    expect(await fs.list(PENDING)).toHaveLength(1);
    expect(await at(9_002).run({ executionId: 'x', spec })).toMatchObject({ spentUsd: 6 });
    expect(host.calls()).toBe(2);
  });

  it('a write that fails with a value that has no text is reported, never an unhandled rejection', async () => {
    const base = createMemoryFileSystem();
    const fs: FileSystem = {
      ...base,
      writeText: (path, text) =>
        path.includes('spend-pending') ? Promise.reject(Object.create(null)) : base.writeText(path, text),
    };
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const clock = createManualClock(0);
      const host = slowFirst(3);
      const stages = [{ id: 'plan', generate: host.generate }];
      const run = new StagedPipeline({ fs, dir: DIR, stages, clock, hostCallTimeoutMs: 100 }).run({
        executionId: 'x',
        spec,
      });
      await host.called;
      clock.advance(100);
      expect((await run).escalation).toBe('generator_failed');
      host.release();
      await vi.waitFor(() => expect(warn).toHaveBeenCalledTimes(1));
      expect(warn.mock.calls[0]?.[0]).toContain('a value of type object that has no text form');
    } finally {
      warn.mockRestore();
    }
  });

  it('a pending record of another execution (a shared folder) is reported, not counted', async () => {
    const fs = createMemoryFileSystem();
    const record = { execution_id: 'y', stage: 'plan', attempt: 1, call: 'generate', cost_usd: 7, settled_at: 't' };
    await fs.writeText(`${PENDING}/plan-1-generate-y.json`, JSON.stringify(record));
    const stages = [{ id: 'plan', generate: async () => ({ output: 1, costUsd: 1 }) }];
    const result = await new StagedPipeline({ fs, dir: DIR, stages }).run({ executionId: 'x', spec });
    expect(result.spentUsd).toBe(1);
    expect(result.trace[0]).toMatchObject({ kind: 'late_cost_unreadable', reason: 'written for execution y' });
    expect(await fs.list(PENDING)).toEqual(['plan-1-generate-y.json']);
  });

  it('a critic whose costUsd throws when read escalates cleanly, charged nothing for it', async () => {
    const fs = createMemoryFileSystem();
    const reply = Object.defineProperty({ decision: 'accept' }, 'costUsd', {
      enumerable: true,
      get() {
        throw new Error('getter boom');
      },
    });
    const stages = [
      { id: 'plan', generate: async () => ({ output: 1, costUsd: 1 }), critic: async () => reply as never },
    ];
    const result = await new StagedPipeline({ fs, dir: DIR, stages }).run({ executionId: 'x', spec });
    expect(result).toMatchObject({ status: 'escalated', escalation: 'invalid_decision', spentUsd: 1 });
    expect(result.reason).toContain('getter boom');
  });

  it('a holder that lost its lock after counting removes no pending file (the new holder remembers them)', async () => {
    const base = createMemoryFileSystem();
    const record = { execution_id: 'x', stage: 'plan', attempt: 1, call: 'generate', cost_usd: 2, settled_at: 't' };
    await base.writeText(`${PENDING}/plan-1-generate-a.json`, JSON.stringify(record));
    // Right after the fold's commit (its late_cost record appended), another process takes the execution over.
    const fs: FileSystem = {
      ...base,
      appendText: async (path, text) => {
        await base.appendText(path, text);
        if (text.includes('"late_cost"')) await base.remove(`${DIR}/x/execution.lock`);
      },
    };
    const stages = [{ id: 'plan', generate: async () => ({ output: 1, costUsd: 1 }) }];
    const run = new StagedPipeline({ fs, dir: DIR, stages }).run({ executionId: 'x', spec });
    await expect(run).rejects.toMatchObject({ code: 'RUN_LOCKED' });
    expect(await base.list(PENDING)).toEqual(['plan-1-generate-a.json']);
  });

  it('a lock lost after the call was saved parks nothing: the saved record holds the cost, counted once', async () => {
    const base = createMemoryFileSystem();
    let armed = true;
    const fs: FileSystem = {
      ...base,
      writeText: async (path, text) => {
        await base.writeText(path, text);
        if (armed && path.endsWith('/x/state.json') && text.includes('"generated"')) {
          armed = false;
          await base.remove(`${DIR}/x/execution.lock`);
        }
      },
    };
    const stages = [{ id: 'plan', generate: async () => ({ output: 1, costUsd: 5 }) }];
    await expect(new StagedPipeline({ fs, dir: DIR, stages }).run({ executionId: 'x', spec })).rejects.toMatchObject({
      code: 'RUN_LOCKED',
    });
    expect(await base.list(PENDING)).toBeNull();
    expect(await new StagedPipeline({ fs: base, dir: DIR, stages }).run({ executionId: 'x', spec })).toMatchObject({
      status: 'completed',
      spentUsd: 5,
    });
  });
});
