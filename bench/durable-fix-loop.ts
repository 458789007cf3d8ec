// The fix-loop step over a session's 50 attempts: the mean of the first ten iteration steps against the last ten
// (flat means a step's cost does not grow with the attempts the record holds).
import { stepTimes } from './fix-loop.bench.js';

const mean = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / values.length;

/** Mean milliseconds of iteration steps 1–10 and 41–50 (step indexes 2–11 and 42–51), memory adapters. */
export async function fixLoopStepMeans(): Promise<{ first: number; last: number }> {
  const byIndex = await stepTimes();
  return { first: mean(byIndex.slice(2, 12).flat()), last: mean(byIndex.slice(42, 52).flat()) };
}
