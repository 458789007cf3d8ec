import { describe, expect, it } from 'vitest';
import { mapConcurrent } from '../../src/runtime/concurrency.js';

// Resolves after a few turns of the event loop.
const later = <T>(value: T, turns = 2): Promise<T> =>
  new Promise((resolve) => {
    const step = (left: number): void => {
      if (left === 0) resolve(value);
      else setImmediate(() => step(left - 1));
    };
    step(turns);
  });

describe('mapConcurrent', () => {
  it('keeps the input order and never runs more than the bound at once', async () => {
    let running = 0;
    let peak = 0;
    const out = await mapConcurrent(
      Array.from({ length: 50 }, (_, i) => i),
      4,
      async (item, index) => {
        running += 1;
        peak = Math.max(peak, running);
        const value = await later(item * 10, (item * 7) % 5);
        running -= 1;
        return `${index}:${value}`;
      },
    );
    expect(out).toEqual(Array.from({ length: 50 }, (_, i) => `${i}:${i * 10}`));
    expect(peak).toBe(4);
  });

  it('maps an empty list to an empty list, and takes a bound below 1 (or NaN) as 1', async () => {
    expect(await mapConcurrent([], 8, async () => 1)).toEqual([]);
    for (const bound of [0, -3, Number.NaN]) {
      let running = 0;
      let peak = 0;
      const out = await mapConcurrent([1, 2, 3], bound, async (item) => {
        running += 1;
        peak = Math.max(peak, running);
        await later(null);
        running -= 1;
        return item;
      });
      expect(out).toEqual([1, 2, 3]);
      expect(peak).toBe(1);
    }
  });

  it('rejects with the first failure and starts no new item after it', async () => {
    const started: number[] = [];
    const failing = mapConcurrent(
      Array.from({ length: 20 }, (_, i) => i),
      2,
      async (item) => {
        started.push(item);
        await later(null);
        if (item === 3) throw new Error('boom at 3');
        return item;
      },
    );
    await expect(failing).rejects.toThrow('boom at 3');
    await later(null, 10);
    expect(started.length).toBeLessThanOrEqual(5);
  });

  it('turns a synchronous throw into a rejection', async () => {
    await expect(
      mapConcurrent([1], 1, () => {
        throw new Error('sync');
      }),
    ).rejects.toThrow('sync');
  });
});
