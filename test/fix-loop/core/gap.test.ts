import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gapModelSchema } from '../../../src/fix-loop/contracts/gap.js';
import { computeGap } from '../../../src/fix-loop/core/gap.js';

const parts = (failing: boolean, errors: number, failed: number, missing: string[] = []) => ({
  build: { failing, error_count: errors },
  tests: { failed, passed: 4, total: 4 + failed },
  requirements: { missing },
});

describe('computeGap', () => {
  it('adds build errors, failed tests and missing requirements', () => {
    expect(computeGap(parts(true, 3, 2, ['node_modules'])).gap).toBe(6);
  });

  it('counts a failing build with no error counted as 1', () => {
    expect(computeGap(parts(true, 0, 0)).gap).toBe(1);
  });

  it('counts nothing for a passing build, whatever warnings it counted', () => {
    expect(computeGap(parts(false, 7, 0)).gap).toBe(0);
  });

  it('keeps the parts, copied, and gives a model the schema accepts', () => {
    const input = parts(false, 0, 1, ['docker']);
    const model = computeGap(input);
    expect(model).toMatchObject(input);
    expect(model.requirements.missing).not.toBe(input.requirements.missing);
    expect(gapModelSchema.parse(model)).toEqual(model);
  });

  it('is zero exactly when nothing fails and nothing is missing', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.nat(9), fc.nat(9), fc.array(fc.string(), { maxLength: 2 }), (failing, e, f, m) => {
        const gap = computeGap(parts(failing, e, f, m)).gap;
        expect(gap === 0).toBe(!failing && f === 0 && m.length === 0);
        expect(gap).toBeGreaterThanOrEqual(f + m.length);
      }),
    );
  });
});
