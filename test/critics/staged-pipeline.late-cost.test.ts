import { describe, expect, it, vi } from 'vitest';
import type { Critic, Generator, StageDefinition } from '../../src/critics/options.js';
import { StagedPipeline } from '../../src/critics/staged-pipeline.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { tick, within } from './hanging-host.js';
import { critic, DIR, generator, type HostCall, spec } from './helpers.js';

// What a generator or critic reports after the pipeline stopped waiting for it (its time limit, an abort) still
// counts: it is left in the execution's spend-pending folder and added to the spend by the next run() or step().

const PENDING = `${DIR}/x/spend-pending`;

/** A generator whose first call is held until `release(value)`; later calls answer at once (0.5 USD). */
function heldGenerator(calls: HostCall[]) {
  let release: (value: unknown) => void = () => {};
  let reached: () => void = () => {};
  const called = new Promise<void>((resolve) => (reached = resolve));
  const answer = generator(calls);
  const generate: Generator = async (input) => {
    if (calls.length > 0) return answer(input);
    calls.push({ kind: 'generate', stage: input.stageId, attempt: input.attempt });
    reached();
    // The value is whatever the test hands over, hostile ones included.
    return new Promise<unknown>((resolve) => (release = resolve)) as ReturnType<Generator>;
  };
  return { generate, called, release: (value: unknown) => release(value) };
}

// A pipeline over plan (held generator, accepting critic) and code, on a memory filesystem with a manual clock.
function setUp(extra: { budgetUsd?: number; fs?: FileSystem } = {}) {
  const fs = extra.fs ?? createMemoryFileSystem();
  const clock = createManualClock(0);
  const calls: HostCall[] = [];
  const held = heldGenerator(calls);
  const stages: StageDefinition[] = [
    { id: 'plan', generate: held.generate, critic: critic(calls, () => ({ decision: 'accept' })) },
    { id: 'code', generate: generator(calls) },
  ];
  const make = (signal?: AbortSignal) =>
    new StagedPipeline({
      fs,
      dir: DIR,
      stages,
      clock,
      hostCallTimeoutMs: 5_000,
      ...(extra.budgetUsd === undefined ? {} : { budgetUsd: extra.budgetUsd }),
      ...(signal === undefined ? {} : { signal }),
    });
  return { fs, clock, calls, held, make };
}

// Resolves once the pending folder holds `count` files.
async function pendingFiles(fs: FileSystem, count: number): Promise<string[]> {
  for (let turn = 0; turn < 50; turn++) {
    const names = ((await fs.list(PENDING)) ?? []).filter((name) => name.endsWith('.json'));
    if (names.length >= count) return names;
    await tick();
  }
  throw new Error(`expected ${count} pending files`);
}

describe('StagedPipeline: late costs', () => {
  it('a generator that timed out and reports $2 later: the next run() adds it to the spend, once', async () => {
    const { fs, clock, held, make } = setUp();
    const run = make().run({ executionId: 'x', spec });
    await held.called;
    clock.advance(5_000);
    const first = await within(run);
    expect(first).toMatchObject({ status: 'escalated', escalation: 'generator_failed', spentUsd: 0 });

    held.release({ output: 'late plan', costUsd: 2 });
    expect(await pendingFiles(fs, 1)).toEqual([expect.stringMatching(/^plan-1-generate-[0-9a-f-]{36}\.json$/)]);
    const again = await make().run({ executionId: 'x', spec });
    expect(again).toMatchObject({ status: 'escalated', escalation: 'generator_failed', spentUsd: 2 });
    expect(again.trace.at(-1)).toMatchObject({
      kind: 'late_cost',
      stage: 'plan',
      attempt: 1,
      call: 'generate',
      costUsd: 2,
      path: expect.stringContaining(`${PENDING}/plan-1-generate-`),
    });
    expect(await fs.list(PENDING)).toEqual([]);
    expect(await make().run({ executionId: 'x', spec })).toMatchObject({ spentUsd: 2 });
  });

  it('a call cut off by an abort is made again, and its late cost stops the execution on a spent budget', async () => {
    const { fs, calls, held, make } = setUp({ budgetUsd: 1 });
    const controller = new AbortController();
    const run = make(controller.signal).run({ executionId: 'x', spec });
    await held.called;
    controller.abort(new Error('host shutting down'));
    await expect(within(run)).rejects.toThrow('host shutting down');

    held.release({ output: 'plan', costUsd: 3 });
    await pendingFiles(fs, 1);
    const resumed = await make().run({ executionId: 'x', spec });
    expect(resumed).toMatchObject({
      status: 'escalated',
      escalation: 'budget',
      reason: 'spent $3 of the $1 budget (late costs counted)',
      spentUsd: 3,
    });
    // The cut-off call was the only one: the budget stopped the execution before its generator was called again.
    expect(calls).toEqual([{ kind: 'generate', stage: 'plan', attempt: 1 }]);
    expect(resumed.trace.map((record) => record.kind)).toEqual(['late_cost', 'finished']);
  });

  it('under the budget, the resumed execution goes on and the spend holds the late cost and the new calls', async () => {
    const { fs, held, make } = setUp({ budgetUsd: 10 });
    const controller = new AbortController();
    const run = make(controller.signal).run({ executionId: 'x', spec });
    await held.called;
    controller.abort(new Error('stop'));
    await expect(within(run)).rejects.toThrow('stop');
    held.release({ output: 'plan', costUsd: 1.1 });
    await pendingFiles(fs, 1);
    // 1.1 late, then plan 0.5 + 0.25 (its critic) and code 0.5.
    expect(await make().run({ executionId: 'x', spec })).toMatchObject({ status: 'completed', spentUsd: 2.35 });
  });

  it('a late value that reports no cost, or throws while read, leaves nothing', async () => {
    const { fs, clock, held, make } = setUp();
    const run = make().run({ executionId: 'x', spec });
    await held.called;
    clock.advance(5_000);
    await within(run);
    const hostile = {
      get costUsd(): number {
        throw new Error('boom');
      },
    };
    held.release(hostile);
    for (let turn = 0; turn < 5; turn++) await tick();
    expect(await fs.list(PENDING)).toBeNull();
  });

  it('a pending file that cannot be read is reported once in the trace, never counted, and kept', async () => {
    const { fs, held, make } = setUp();
    await fs.writeText(`${PENDING}/plan-1-generate-bad.json`, '{"stage":"plan","cost_usd":"lots"}');
    const run = make().run({ executionId: 'x', spec });
    await held.called;
    held.release({ output: 'plan', costUsd: 0.5 });
    const first = await within(run);
    const second = await make().run({ executionId: 'x', spec });
    const reports = second.trace.filter((record) => record.kind === 'late_cost_unreadable');
    expect(reports).toEqual([
      expect.objectContaining({ path: `${PENDING}/plan-1-generate-bad.json`, reason: expect.stringContaining('$.') }),
    ]);
    expect(first.spentUsd).toBe(second.spentUsd);
    expect(await fs.list(PENDING)).toEqual(['plan-1-generate-bad.json']);
  });

  it('a write that fails is reported on the console with the cost', async () => {
    const base = createMemoryFileSystem();
    const fs: FileSystem = {
      ...base,
      writeText: (path, text) =>
        path.includes('spend-pending') ? Promise.reject(new Error('disk full')) : base.writeText(path, text),
    };
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const { clock, held, make } = setUp({ fs });
      const run = make().run({ executionId: 'x', spec });
      await held.called;
      clock.advance(5_000);
      await within(run);
      held.release({ output: 'late', costUsd: 4 });
      await vi.waitFor(() => expect(warn).toHaveBeenCalledTimes(1));
      expect(warn.mock.calls[0]?.[0]).toMatch(/the plan generator \(attempt 1\) reported \$4 .*disk full/);
    } finally {
      warn.mockRestore();
    }
  });
});

describe('StagedPipeline: late costs arriving during a run', () => {
  it('are counted before the next generator call, which the spent budget then stops', async () => {
    const fs = createMemoryFileSystem();
    const calls: HostCall[] = [];
    // The plan critic stands for another process whose cut-off call reports $2 while this run goes on.
    const lateElsewhere: Critic = async (input) => {
      calls.push({ kind: 'judge', stage: input.stageId, attempt: input.attempt });
      const record = { execution_id: 'x', stage: 'plan', attempt: 1, call: 'generate', cost_usd: 2, settled_at: 't' };
      await fs.writeText(`${PENDING}/plan-1-generate-elsewhere.json`, JSON.stringify(record));
      return { decision: 'accept' };
    };
    const stages = [
      { id: 'plan', generate: generator(calls), critic: lateElsewhere },
      { id: 'code', generate: generator(calls) },
    ];
    const result = await new StagedPipeline({ fs, dir: DIR, stages, budgetUsd: 1 }).run({ executionId: 'x', spec });
    expect(result).toMatchObject({ status: 'escalated', escalation: 'budget', spentUsd: 2.5 });
    expect(calls.map((call) => `${call.kind} ${call.stage}`)).toEqual(['generate plan', 'judge plan']);
  });
});
