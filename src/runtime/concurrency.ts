import { limitFunction } from 'p-limit';

/**
 * Maps `items` through `fn` with at most `concurrency` calls in flight, keeping the input order in the output.
 * @internal
 */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const work = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index] as T, index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const width = Math.min(items.length, concurrency >= 1 ? Math.floor(concurrency) : 1);
  const workers: Promise<void>[] = [];
  for (let i = 0; i < width; i++) workers.push(work());
  await Promise.all(workers);
  return results;
}

export { limitFunction };
