// Sums of US dollar amounts as the library records them: a budget's spend, a stage's cost, a report's total.

// The amounts are kept to a billionth of a dollar: far below any price a model or a host charges, and far above the
// float error of adding decimal fractions (0.1 + 0.2 is 0.30000000000000004; the spend it records is 0.3).
const PER_USD = 1e9;

/** The sum of two US dollar amounts, rounded to a billionth of a dollar so that adding decimal costs gives the decimal total. @internal */
export function addUsd(total: number, amount: number): number {
  const sum = total + amount;
  // Two finite amounts can add up past the largest double: the sum stays the largest one, which any budget has
  // exceeded and JSON can hold (Infinity would be written as null, a record that no longer reads).
  if (sum === Number.POSITIVE_INFINITY) return Number.MAX_VALUE;
  if (sum === Number.NEGATIVE_INFINITY) return -Number.MAX_VALUE;
  // An amount too large for a billionth to be exact is already as exact as a float holds it.
  return Math.abs(sum) >= Number.MAX_SAFE_INTEGER / PER_USD ? sum : Math.round(sum * PER_USD) / PER_USD;
}

/** The sum of US dollar amounts (on `start`, itself rounded), added in order with {@link addUsd}. Pure. @internal */
export function sumUsd(amounts: Iterable<number>, start = 0): number {
  let total = addUsd(start, 0);
  for (const amount of amounts) total = addUsd(total, amount);
  return total;
}
