// Small helpers to time a task with tinybench and print ratios rather than bare times.
import { Bench } from 'tinybench';

/** Median time of `task` in milliseconds over a short tinybench run (warm-up: 16 runs or 250 ms unless told). */
export async function medianMs(
  name: string,
  task: () => Promise<unknown> | unknown,
  options: { time?: number; iterations?: number; warmupIterations?: number; warmupTime?: number } = {},
): Promise<number> {
  const bench = new Bench({
    time: options.time ?? 300,
    iterations: options.iterations ?? 5,
    warmup: true,
    warmupIterations: options.warmupIterations ?? 16,
    warmupTime: options.warmupTime ?? 250,
  });
  // Declared async so tinybench never probes it with an extra, unawaited call (a loop's lock would see two callers).
  bench.add(name, task, { async: true });
  await bench.run();
  const result = bench.tasks[0]?.result;
  if (result === undefined || !('latency' in result)) throw new Error(`benchmark ${name} produced no result`);
  return result.latency.p50 ?? result.latency.mean;
}

/** Prints a table row: label, value, and a note. */
export function row(label: string, value: string, note = ''): void {
  console.log(`  ${label.padEnd(44)} ${value.padStart(12)}  ${note}`);
}

/** Formats milliseconds with a sensible precision. */
export function ms(value: number): string {
  return value < 1 ? `${(value * 1000).toFixed(1)} µs` : `${value.toFixed(2)} ms`;
}

/** Formats a ratio. */
export function ratio(value: number): string {
  return `${value.toFixed(2)}×`;
}
