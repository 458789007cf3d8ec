import { describe, expect, it } from 'vitest';
import type { TraceRecord } from '../../src/critics/contracts/trace.js';
import type { StageDefinition, StagedPipelineOptions } from '../../src/critics/options.js';
import { StagedPipeline } from '../../src/critics/staged-pipeline.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { critic, generator, type HostCall } from './helpers.js';

// A generator or critic that never settles, and ignores its signal, cannot hold run() or step() (nor the
// execution's lock) for ever: the pipeline's abort stops the wait at once, and hostCallTimeoutMs fails the call.

const DIR = '.goal-loop/critics';
const LOCK = `${DIR}/x/execution.lock`;
const spec = { feature: 'login' };
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

// A host function that never settles and ignores its signal; `called` resolves with the signal of its first call.
function hanging(calls: HostCall[], kind: HostCall['kind']) {
  let reached: (signal: AbortSignal) => void = () => {};
  const called = new Promise<AbortSignal>((resolve) => (reached = resolve));
  const call = (input: { stageId: string; attempt: number; signal: AbortSignal }): Promise<never> => {
    calls.push({ kind, stage: input.stageId, attempt: input.attempt });
    reached(input.signal);
    return new Promise<never>(() => {});
  };
  return { called, call };
}

// Rejects when `promise` has not settled within `ms` of real time (a hang fails the test at once, not at its timeout).
function within<T>(promise: Promise<T>, ms = 1_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still pending after ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

// Whether `promise` has settled by now.
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await tick();
  return done;
}

// The trace records of generator and critic calls, in order.
const calledRecords = (trace: readonly TraceRecord[]) =>
  trace.filter((record) => record.kind === 'generated' || record.kind === 'judged');

// plan (with a critic) then code (without), every call recorded: the stages a resumed pipeline runs.
const acceptingStages = (calls: HostCall[]): [StageDefinition, StageDefinition] => [
  { id: 'plan', generate: generator(calls), critic: critic(calls, () => ({ decision: 'accept' })) },
  { id: 'code', generate: generator(calls) },
];

/**
 * A pipeline over plan and code (memory filesystem, manual clock) in which one call never settles and ignores its
 * signal; `resumed()` is another pipeline on the same execution whose calls all answer.
 */
function hangingAt(where: 'plan generator' | 'plan critic' | 'code generator', extra: Partial<StagedPipelineOptions>) {
  const fs = createMemoryFileSystem();
  const clock = createManualClock(0);
  const calls: HostCall[] = [];
  const host = hanging(calls, where === 'plan critic' ? 'judge' : 'generate');
  const [plan, code] = acceptingStages(calls);
  const stages =
    where === 'plan critic'
      ? [{ ...plan, critic: host.call }, code]
      : where === 'plan generator'
        ? [{ ...plan, generate: host.call }, code]
        : [plan, { ...code, generate: host.call }];
  const pipeline = new StagedPipeline({ fs, dir: DIR, clock, stages, ...extra });
  const resumed = () => new StagedPipeline({ fs, dir: DIR, clock, stages: acceptingStages(calls) });
  return { fs, clock, calls, called: host.called, pipeline, resumed };
}

describe('StagedPipeline: the abort stops waiting for a host call that ignores its signal', () => {
  it('run() rejects at once, the lock is released, and a resume makes the cut-off critic call once more', async () => {
    const controller = new AbortController();
    const { fs, clock, calls, called, pipeline, resumed } = hangingAt('plan critic', { signal: controller.signal });
    const run = pipeline.run({ executionId: 'x', spec });
    const signal = await called;
    expect(await fs.stat(LOCK)).not.toBeNull();

    controller.abort(new Error('host shut down'));
    await expect(within(run)).rejects.toThrow('host shut down');
    expect(signal.aborted).toBe(true);
    expect(await fs.stat(LOCK)).toBeNull();
    // No heartbeat (nor time limit) is left sleeping on the clock.
    expect(clock.pending()).toBe(0);

    const result = await resumed().run({ executionId: 'x', spec });
    expect(result).toMatchObject({ status: 'completed', attempts: { plan: 1, code: 1 } });
    expect(calls).toEqual([
      { kind: 'generate', stage: 'plan', attempt: 1 },
      { kind: 'judge', stage: 'plan', attempt: 1 },
      { kind: 'judge', stage: 'plan', attempt: 1 },
      { kind: 'generate', stage: 'code', attempt: 1 },
    ]);
    expect(calledRecords(result.trace).map((record) => `${record.kind}:${record.stage}#${record.attempt}`)).toEqual([
      'generated:plan#1',
      'judged:plan#1',
      'generated:code#1',
    ]);
  });

  it("step() rejects with the request signal's reason while a generator hangs; the next step makes that call again", async () => {
    const { fs, calls, called, pipeline, resumed } = hangingAt('plan generator', {});
    const controller = new AbortController();
    const step = pipeline.step({ executionId: 'x', spec, signal: controller.signal });
    await called;
    controller.abort(new Error('request cancelled'));
    await expect(within(step)).rejects.toThrow('request cancelled');
    expect(await fs.stat(LOCK)).toBeNull();

    expect(await resumed().step({ executionId: 'x', spec })).toEqual({
      done: false,
      next: { kind: 'generate', stage: 'code', attempt: 1 },
    });
    expect(calls).toEqual([
      { kind: 'generate', stage: 'plan', attempt: 1 },
      { kind: 'generate', stage: 'plan', attempt: 1 },
      { kind: 'judge', stage: 'plan', attempt: 1 },
    ]);
  });

  it('a runner whose lock is taken over while its generator ignores the signal ends RUN_LOCKED', async () => {
    const lockTimeoutMs = 9_000;
    const { fs, clock, called, pipeline } = hangingAt('plan generator', { lockTimeoutMs });
    const outcome = pipeline.run({ executionId: 'x', spec }).then(
      () => 'resolved',
      (error: { code?: string }) => error.code,
    );
    const signal = await called;
    // A second runner whose clock says the first one's heartbeat is stale takes the execution over.
    const second = new StagedPipeline({
      fs,
      dir: DIR,
      clock: createManualClock(lockTimeoutMs + 1),
      lockTimeoutMs,
      stages: [{ id: 'plan', generate: hanging([], 'generate').call }],
    });
    void second.run({ executionId: 'x', spec }).catch(() => undefined);
    await tick();
    clock.advance(lockTimeoutMs);
    expect(await within(outcome)).toBe('RUN_LOCKED');
    expect(signal.aborted).toBe(true);
  });
});

describe('StagedPipeline: hostCallTimeoutMs', () => {
  it('a critic that never settles fails at the limit, its signal aborted: the execution escalates critic_failed', async () => {
    const { clock, calls, called, pipeline } = hangingAt('plan critic', { hostCallTimeoutMs: 5_000 });
    const run = pipeline.run({ executionId: 'x', spec });
    const signal = await called;
    clock.advance(4_999);
    expect(await settled(run)).toBe(false);
    expect(signal.aborted).toBe(false);

    clock.advance(1);
    const result = await within(run);
    expect(signal.aborted).toBe(true);
    expect(result).toMatchObject({
      status: 'escalated',
      escalation: 'critic_failed',
      reason: expect.stringContaining('the plan critic timed out after 5000 ms'),
      attempts: { plan: 1 },
    });
    expect(calledRecords(result.trace).at(-1)).toMatchObject({
      kind: 'judged',
      decision: 'invalid',
      invalid: 'the plan critic timed out after 5000 ms',
      durationMs: 5_000,
    });
    expect(calls.filter((call) => call.kind === 'judge')).toHaveLength(1);
  });

  it('a generator that never settles fails at the limit: the execution escalates generator_failed', async () => {
    const { clock, called, pipeline } = hangingAt('code generator', { hostCallTimeoutMs: 5_000 });
    const run = pipeline.run({ executionId: 'x', spec });
    const signal = await called;
    clock.advance(5_000);
    const result = await within(run);
    expect(signal.aborted).toBe(true);
    expect(result).toMatchObject({
      status: 'escalated',
      escalation: 'generator_failed',
      reason: expect.stringContaining('the code generator timed out after 5000 ms'),
    });
    expect(calledRecords(result.trace).at(-1)).toMatchObject({
      kind: 'generated',
      stage: 'code',
      error: 'the code generator timed out after 5000 ms',
    });
  });

  it('defaults to 10 minutes', async () => {
    const { clock, called, pipeline } = hangingAt('plan critic', {});
    const run = pipeline.run({ executionId: 'x', spec });
    await called;
    clock.advance(599_999);
    expect(await settled(run)).toBe(false);
    clock.advance(1);
    expect(await within(run)).toMatchObject({
      escalation: 'critic_failed',
      reason: expect.stringContaining('the plan critic timed out after 600000 ms'),
    });
  });

  it.each([0, -1, 1.5, '5000', Number.POSITIVE_INFINITY])('refuses %s at $.hostCallTimeoutMs', (value) => {
    const options = { fs: createMemoryFileSystem(), dir: DIR, stages: [{ id: 'a', generate: generator([]) }] };
    expect(() => new StagedPipeline({ ...options, hostCallTimeoutMs: value as number })).toThrow(
      /Invalid StagedPipeline options: \$\.hostCallTimeoutMs: /,
    );
  });
});
