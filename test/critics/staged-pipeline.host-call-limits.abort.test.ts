import { describe, expect, it } from 'vitest';
import { StagedPipeline } from '../../src/critics/staged-pipeline.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { calledRecords, hanging, hangingAt, tick, within } from './hanging-host.js';
import { DIR, spec } from './helpers.js';

// A generator or critic that never settles, and ignores its signal, cannot hold run() or step() (nor the
// execution's lock) for ever: the pipeline's abort stops the wait at once.

const LOCK = `${DIR}/x/execution.lock`;

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
