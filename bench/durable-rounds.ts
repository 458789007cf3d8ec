// Side-by-side timing in interleaved rounds: each round runs every task a few times in turn, so a noisy neighbour or
// a disk flush slows all of them alike; a task's time is the median over the rounds of its mean in a round.
import { performance } from 'node:perf_hooks';

/** A task to time: one call is one unit (an iteration, a superstep, a turn). */
export interface TimedTask {
  readonly name: string;
  readonly once: () => Promise<unknown>;
  /** How many units one call is (a run of ten turns is ten), default 1. */
  readonly units?: number;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** Milliseconds per unit of each task, by name, over `rounds` rounds of `perRound` calls each (after a warm-up round). */
export async function interleaved(
  tasks: readonly TimedTask[],
  rounds = 9,
  perRound = 20,
): Promise<Map<string, number>> {
  const samples = new Map<string, number[]>(tasks.map((task) => [task.name, []]));
  for (let round = -1; round < rounds; round++) {
    for (const task of tasks) {
      const started = performance.now();
      for (let i = 0; i < perRound; i++) await task.once();
      if (round >= 0) samples.get(task.name)?.push((performance.now() - started) / perRound / (task.units ?? 1));
    }
  }
  return new Map([...samples].map(([name, times]) => [name, median(times)]));
}
