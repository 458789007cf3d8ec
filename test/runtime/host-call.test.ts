import { describe, expect, it } from 'vitest';
import { boundedHostCall, describeThrown } from '../../src/runtime/host-call.js';
import { createManualClock } from '../../src/testing/manual-clock.js';

// boundedHostCall: a host call raced against its time limit, the caller's abort and the loss of the lock.

import { bounds, hanging, tick } from './host-call-helpers.js';

describe('boundedHostCall', () => {
  it('a call that settles as the caller aborts is the abort, never a failure to record', async () => {
    const controller = new AbortController();
    const { given } = bounds(createManualClock(0), controller.signal);
    const reason = new Error('stop now');
    const outcome = boundedHostCall(given, () => {
      controller.abort(reason);
      throw new Error('saw the abort');
    });
    await expect(outcome).rejects.toBe(reason);
  });

  it('gives the value of a call that settles, under the heartbeat', async () => {
    const { given, beating } = bounds(createManualClock(0));
    let during = false;
    const outcome = await boundedHostCall(given, async () => {
      during = beating();
      return 42;
    });
    expect(outcome).toEqual({ ok: true, value: 42 });
    expect(during).toBe(true);
    expect(beating()).toBe(false);
  });

  it('reports what a call threw, synchronously or not, as a failed outcome', async () => {
    const { given } = bounds(createManualClock(0));
    const boom = new Error('boom');
    expect(
      await boundedHostCall(given, () => {
        throw boom;
      }),
    ).toEqual({ ok: false, error: 'boom', timedOut: false, cause: boom });
    expect(await boundedHostCall(given, () => Promise.reject('no'))).toMatchObject({ ok: false, error: 'no' });
  });

  it('fails a call still pending at the limit, timed out, and aborts its signal', async () => {
    const clock = createManualClock(0);
    const { given } = bounds(clock);
    const host = hanging();
    const outcome = boundedHostCall(given, host.call);
    await tick();
    clock.advance(999);
    await tick();
    expect(host.seen[0]?.aborted).toBe(false);
    clock.advance(1);
    expect(await outcome).toMatchObject({ ok: false, error: 'timed out after 1000 ms', timedOut: true });
    expect(host.seen[0]?.reason).toEqual(new Error('the host call timed out after 1000 ms'));
    expect(clock.pending()).toBe(0);
  });

  it("rejects at once with the abort's reason, the call's signal aborted and the heartbeat stopped", async () => {
    const clock = createManualClock(0);
    const controller = new AbortController();
    const { given, beating } = bounds(clock, controller.signal);
    const host = hanging();
    const outcome = boundedHostCall(given, host.call);
    await tick();
    controller.abort(new Error('stop'));
    await expect(outcome).rejects.toThrow('stop');
    expect(host.seen[0]?.aborted).toBe(true);
    expect(beating()).toBe(false);
    expect(clock.pending()).toBe(0);
  });

  it("rejects with the lock's loss, the call's signal aborted", async () => {
    const { given, lost } = bounds(createManualClock(0));
    const host = hanging();
    const outcome = boundedHostCall(given, host.call);
    await tick();
    lost.abort(Object.assign(new Error('taken over'), { code: 'RUN_LOCKED' }));
    await expect(outcome).rejects.toMatchObject({ code: 'RUN_LOCKED' });
    expect(host.seen[0]?.aborted).toBe(true);
  });

  it('rejects without calling when the signal has already fired, and drops a value given after the abort', async () => {
    const controller = new AbortController();
    controller.abort(new Error('before'));
    const { given } = bounds(createManualClock(0), controller.signal);
    const host = hanging();
    await expect(boundedHostCall(given, host.call)).rejects.toThrow('before');
    expect(host.seen).toHaveLength(0);

    const late = new AbortController();
    const second = bounds(createManualClock(0), late.signal).given;
    const answering = boundedHostCall(second, async () => {
      late.abort(new Error('during'));
      return 'value';
    });
    await expect(answering).rejects.toThrow('during');
  });
});

describe('describeThrown', () => {
  it('is the message of an error, the text of anything else, and says so of a value without a text form', () => {
    expect(describeThrown(new TypeError('bad'))).toBe('bad');
    expect(describeThrown(7)).toBe('7');
    const noText = {
      toString() {
        throw new Error('no');
      },
    };
    expect(describeThrown(noText)).toBe('a value of type object that has no text form');
  });
});
