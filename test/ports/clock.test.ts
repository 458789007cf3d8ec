import { describe, expect, it } from 'vitest';
import { createSystemClock, systemClock } from '../../src/ports/clock.js';

describe('systemClock', () => {
  it('tells the wall-clock time', () => {
    const before = Date.now();
    const now = systemClock.now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });

  it('sleeps at least roughly the asked time', async () => {
    const started = performance.now();
    await createSystemClock().sleep(30);
    expect(performance.now() - started).toBeGreaterThanOrEqual(20);
  });

  it('rejects with the reason when aborted during a sleep, and at once when already aborted', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    const sleeping = systemClock.sleep(60_000, controller.signal);
    controller.abort(reason);
    await expect(sleeping).rejects.toBe(reason);
    await expect(systemClock.sleep(10, AbortSignal.abort(reason))).rejects.toBe(reason);
  });

  it('resolves normally under a live signal, and a later abort changes nothing', async () => {
    const controller = new AbortController();
    await systemClock.sleep(5, controller.signal);
    controller.abort(new Error('late'));
    expect(controller.signal.aborted).toBe(true);
  });

  it('keeps concurrent sleeps independent when one of them is aborted', async () => {
    const controller = new AbortController();
    const aborted = systemClock.sleep(60_000, controller.signal).then(
      () => 'resolved',
      () => 'rejected',
    );
    const plain = systemClock.sleep(5).then(() => 'resolved');
    controller.abort();
    expect(await Promise.all([aborted, plain])).toEqual(['rejected', 'resolved']);
  });

  it('resolves a zero or invalid delay promptly', async () => {
    await systemClock.sleep(0);
    await systemClock.sleep(Number.NaN);
    await systemClock.sleep(-5);
  });
});
