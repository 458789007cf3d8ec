import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addUsd, sumUsd } from '../../src/kit/usd.js';

describe('addUsd / sumUsd', () => {
  it('adds decimal costs to their decimal total', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(addUsd(0.1, 0.2)).toBe(0.3);
    expect(sumUsd([0.1, 0.2, 0.3])).toBe(0.6);
    expect(sumUsd([1.15, 2.3], 0.05)).toBe(3.5);
  });

  it('gives the exact total of any list of amounts in micro-dollars', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 10_000_000_000 }), { maxLength: 50 }), (micros) => {
        const exact = micros.reduce((sum, micro) => sum + micro, 0) / 1e6;
        expect(sumUsd(micros.map((micro) => micro / 1e6))).toBe(exact);
      }),
    );
  });

  it('stays within a billionth of a dollar of the float sum, and keeps amounts too large for that as they are', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        (a, b) => {
          // Half a billionth from the rounding, plus the float error of adding, scaling and dividing back at this
          // magnitude (about 1.5 ulps of the sum).
          const floatError = 2 * Number.EPSILON * (a + b);
          expect(Math.abs(addUsd(a, b) - (a + b))).toBeLessThanOrEqual(5e-10 + floatError);
        },
      ),
      { numRuns: 20_000 },
    );
    expect(
      Math.abs(addUsd(445743.8125166341, 682956.1659845432) - (445743.8125166341 + 682956.1659845432)),
    ).toBeLessThan(1e-9);
    expect(addUsd(1e300, 1)).toBe(1e300 + 1);
    expect(addUsd(Number.MAX_SAFE_INTEGER, 0)).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('never overflows to Infinity: finite amounts past the largest double sum to it, which JSON keeps', () => {
    expect(addUsd(1e308, 1e308)).toBe(Number.MAX_VALUE);
    expect(sumUsd([1e308, 1e308, 1e308])).toBe(Number.MAX_VALUE);
    expect(addUsd(-1e308, -1e308)).toBe(-Number.MAX_VALUE);
    expect(JSON.parse(JSON.stringify({ spent: sumUsd([1e308, 1e308]) })).spent).toBe(Number.MAX_VALUE);
  });
});
