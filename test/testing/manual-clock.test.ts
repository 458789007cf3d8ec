import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/testing/manual-clock.js';

describe('createManualClock', () => {
  it('starts at the given time and moves only when told', () => {
    const clock = createManualClock(1_000);
    expect(clock.now()).toBe(1_000);
    clock.advance(250);
    expect(clock.now()).toBe(1_250);
    clock.set(5_000);
    expect(clock.now()).toBe(5_000);
    expect(createManualClock().now()).toBe(0);
  });

  it('resolves sleeps when time reaches them, earliest first', async () => {
    const clock = createManualClock();
    const woken: string[] = [];
    const long = clock.sleep(300).then(() => woken.push('long'));
    const short = clock.sleep(100).then(() => woken.push('short'));
    expect(clock.pending()).toBe(2);
    clock.advance(99);
    await Promise.resolve();
    expect(woken).toEqual([]);
    clock.advance(1);
    await short;
    expect(woken).toEqual(['short']);
    clock.set(1_000);
    await long;
    expect(woken).toEqual(['short', 'long']);
    expect(clock.pending()).toBe(0);
  });

  it('resolves a zero sleep at once', async () => {
    await createManualClock().sleep(0);
  });

  it('rejects an aborted sleep with the reason and drops it', async () => {
    const clock = createManualClock();
    const controller = new AbortController();
    const reason = new Error('stop');
    const sleeping = clock.sleep(1_000, controller.signal);
    controller.abort(reason);
    await expect(sleeping).rejects.toBe(reason);
    expect(clock.pending()).toBe(0);
    await expect(clock.sleep(10, AbortSignal.abort(reason))).rejects.toBe(reason);
  });

  it('refuses to move backwards', () => {
    const clock = createManualClock(100);
    expect(() => clock.set(50)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    expect(() => clock.advance(-1)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    expect(clock.now()).toBe(100);
  });

  it('refuses a start that is not a finite number, naming start, instead of a clock whose time is a string', () => {
    for (const start of ['x', '5', Number.NaN, Number.POSITIVE_INFINITY, null, {}]) {
      expect(() => createManualClock(start as never)).toThrow(
        expect.objectContaining({
          code: 'INVALID_OPTIONS',
          issues: [expect.objectContaining({ path: ['start'] })],
        }),
      );
    }
    expect(() => createManualClock('x' as never)).toThrow('$.start: start must be a finite number of ms (got "x")');
  });

  it('refuses a time to advance or set that is not a finite number, naming it, and keeps its time', () => {
    const clock = createManualClock(100);
    for (const ms of ['5', Number.NaN, undefined]) {
      expect(() => clock.advance(ms as never)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
      expect(() => clock.set(ms as never)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    }
    expect(() => clock.advance('5' as never)).toThrow('$.ms: ms must be a finite number of ms (got "5")');
    expect(clock.now()).toBe(100);
  });
});
