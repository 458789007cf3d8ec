import { describe, expect, it } from 'vitest';
import { StagedPipeline } from '../../src/critics/staged-pipeline.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { calledRecords, hangingAt, tick, within } from './hanging-host.js';
import { DIR, generator, spec } from './helpers.js';

// A generator or critic that never settles, and ignores its signal, fails when hostCallTimeoutMs runs out (10 minutes
// unless set): the execution escalates.

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
