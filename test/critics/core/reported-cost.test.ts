import { describe, expect, it } from 'vitest';
import { reportedCost } from '../../../src/critics/core/check-decision.js';

describe('reportedCost', () => {
  it('counts a finite cost of at least 0, and nothing for Infinity, NaN, a negative or a non-number', () => {
    expect(reportedCost({ costUsd: 0.25 })).toBe(0.25);
    expect(reportedCost({ costUsd: 0 })).toBe(0);
    for (const costUsd of [Number.POSITIVE_INFINITY, Number.NaN, -0.01, '0.5', null])
      expect(reportedCost({ costUsd }), String(costUsd)).toBe(0);
    expect(reportedCost(null)).toBe(0);
    const throwing = Object.defineProperty({}, 'costUsd', {
      get() {
        throw new Error('no');
      },
    });
    expect(reportedCost(throwing)).toBe(0);
  });
});
