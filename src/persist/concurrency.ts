import { limitFunction } from 'p-limit';

/**
 * Maps `items` through `fn` with at most `concurrency` calls in flight,
 * keeping the input order in the output.
 *
 * @internal
 */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const limited = limitFunction(fn, { concurrency: Math.max(1, concurrency) });
  return Promise.all(items.map((item, index) => limited(item, index)));
}

export { limitFunction };
