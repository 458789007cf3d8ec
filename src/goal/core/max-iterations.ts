import type { ParseResult } from '../../errors.js';

/** The default bound on iterations per session. @public */
export const DEFAULT_MAX_ITERATIONS = 3;

/** The hard cap on iterations per session: no option can exceed it. @public */
export const MAX_ITERATIONS_HARD_CAP = 20;

/** Validates a `maxIterations` option: default {@link DEFAULT_MAX_ITERATIONS}, clamped to {@link MAX_ITERATIONS_HARD_CAP}. @public */
export function clampMaxIterations(value?: unknown): ParseResult<number> {
  const path = ['maxIterations'];
  if (value === undefined) return { success: true, data: DEFAULT_MAX_ITERATIONS, issues: [] };
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    const shown = typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? typeof value);
    return {
      success: false,
      issues: [
        {
          code: 'invalid_max_iterations',
          path,
          message: `maxIterations must be an integer from 1 to ${MAX_ITERATIONS_HARD_CAP}, got ${shown}`,
        },
      ],
    };
  }
  if (value > MAX_ITERATIONS_HARD_CAP) {
    return {
      success: true,
      data: MAX_ITERATIONS_HARD_CAP,
      issues: [
        {
          code: 'clamped',
          path,
          message: `maxIterations ${value} exceeds the hard cap; ${MAX_ITERATIONS_HARD_CAP} applies`,
        },
      ],
    };
  }
  return { success: true, data: value, issues: [] };
}
