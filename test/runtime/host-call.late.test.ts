// boundedHostCall's late values: what a call gives after its caller stopped waiting goes to `late`, once, so the
// caller can still record its cost.
import { describe, expect, it } from 'vitest';
import { boundedHostCall, type HostCallBounds } from '../../src/runtime/host-call.js';
import { createManualClock, type ManualClock } from '../../src/testing/manual-clock.js';
import { bounds, tick } from './host-call-helpers.js';

// Bounds whose heartbeat, once the call's work is over, aborts the caller's signal before returning.
function abortedAsTheHeartbeatEnds(clock: ManualClock): HostCallBounds {
  const controller = new AbortController();
  const { given } = bounds(clock, controller.signal);
  return {
    ...given,
    heartbeat: async (work) => {
      const value = await given.heartbeat(work);
      controller.abort(new Error('SIGINT'));
      return value;
    },
  };
}

describe('boundedHostCall: late values', () => {
  it('hands a value that arrives after the time limit to late, once', async () => {
    const clock = createManualClock(0);
    let resolve: (value: number) => void = () => {};
    const late: number[] = [];
    const outcome = boundedHostCall(
      bounds(clock).given,
      () => new Promise<number>((r) => (resolve = r)),
      (value) => {
        late.push(value);
      },
    );
    await tick();
    clock.advance(1_000);
    expect(await outcome).toMatchObject({ ok: false, timedOut: true });
    resolve(7);
    await tick();
    expect(late).toEqual([7]);
  });

  it('hands over a value the call gave in time when the caller rejects before returning it (abort, lost lock)', async () => {
    // The heartbeat winds down after the call settled, and the abort lands meanwhile.
    const windingDown = abortedAsTheHeartbeatEnds(createManualClock(0));
    const late: number[] = [];
    const outcome = boundedHostCall(
      windingDown,
      async () => 3,
      (value) => {
        late.push(value);
      },
    );
    await expect(outcome).rejects.toThrow('SIGINT');
    await tick();
    expect(late).toEqual([3]);
  });

  it('hands nothing over for a call it returned, or one that threw', async () => {
    const clock = createManualClock(0);
    const late: unknown[] = [];
    const record = (value: unknown) => {
      late.push(value);
    };
    expect(await boundedHostCall(bounds(clock).given, async () => 1, record)).toEqual({ ok: true, value: 1 });
    const controller = new AbortController();
    const threw = boundedHostCall(
      bounds(clock, controller.signal).given,
      async () => {
        controller.abort(new Error('stop'));
        throw new Error('boom');
      },
      record,
    );
    await expect(threw).rejects.toThrow('stop');
    await tick();
    expect(late).toEqual([]);
  });

  it('hands a value over once when the time limit and then an abort both give the call up', async () => {
    const clock = createManualClock(0);
    const abortAfter = abortedAsTheHeartbeatEnds(clock);
    let resolve: (value: number) => void = () => {};
    const late: number[] = [];
    const outcome = boundedHostCall(
      abortAfter,
      () => new Promise<number>((r) => (resolve = r)),
      (value) => {
        late.push(value);
      },
    );
    await tick();
    clock.advance(1_000);
    await expect(outcome).rejects.toThrow('SIGINT');
    resolve(9);
    await tick();
    expect(late).toEqual([9]);
  });
});
