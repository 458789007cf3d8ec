import type { GapModel, GapParts } from '../contracts/gap.js';

// A count as the gap uses it: a non-negative integer, anything else as 0.
const count = (value: number): number => (Number.isSafeInteger(value) && value > 0 ? value : 0);

// The build's share of the gap: its error count when it fails, at least 1 (a failing build that
// printed no countable error still fails); 0 when it passes, whatever warnings it counted.
function buildGap(build: GapParts['build']): number {
  return build.failing ? Math.max(1, count(build.error_count)) : 0;
}

/**
 * Computes the gap model from its parts: `gap` is the build's errors (at
 * least 1 when the build fails, 0 when it passes) plus the failed tests plus
 * the missing requirements, one number so trends across attempts compare.
 * Pure.
 *
 * @example
 * ```ts
 * computeGap({
 *   build: { failing: true, error_count: 0 },
 *   tests: { failed: 2, passed: 8, total: 10 },
 *   requirements: { missing: [] },
 * }).gap; // 3
 * ```
 * @public
 */
export function computeGap(parts: GapParts): GapModel {
  const gap = buildGap(parts.build) + count(parts.tests.failed) + parts.requirements.missing.length;
  return {
    build: { failing: parts.build.failing, error_count: parts.build.error_count },
    tests: { failed: parts.tests.failed, passed: parts.tests.passed, total: parts.tests.total },
    requirements: { missing: [...parts.requirements.missing] },
    gap,
  };
}
