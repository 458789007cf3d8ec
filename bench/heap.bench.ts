// Heap growth after gc per staged-critics execution and per loop step, over thousands: each on a fresh pipeline or
// loop and a fresh memory filesystem, so whatever stays behind is held by the library's module-level state.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { StagedPipeline } from '../src/critics.js';
import { GoalLoop } from '../src/index.js';
import { createManualClock, createMemoryFileSystem } from '../src/testing.js';
import { row } from './format.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

// Heap used after two full collections.
function settledHeap(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

// Bytes the heap keeps per call of `once` over `count` calls, after as many to warm up (the JIT's code settles).
async function bytesPer(count: number, once: (n: number) => Promise<unknown>): Promise<number> {
  for (let n = 0; n < count; n++) await once(-n - 1);
  const before = settledHeap();
  for (let n = 0; n < count; n++) await once(n);
  return (settledHeap() - before) / count;
}

const criticsExecution = (n: number) =>
  new StagedPipeline({
    fs: createMemoryFileSystem(),
    dir: 'critics',
    clock: createManualClock(0),
    stages: ['plan', 'code', 'test'].map((id) => ({
      id,
      generate: async () => ({ output: { id }, costUsd: 0.01 }),
      critic: async () => ({ decision: 'accept' as const }),
    })),
  }).run({ executionId: `e${n}`, spec: { n } });

const loopStep = () =>
  new GoalLoop({
    fs: createMemoryFileSystem(),
    runDir: 'runs/r',
    stages: ['07-code', '08-testing'],
    runner: { run: async () => ({ status: 'passed' }) },
    clock: createManualClock(0),
  }).step();

/** Heap growth per critics execution and per loop step (targets: at most 100 B and 40 B). */
export async function benchHeap(): Promise<void> {
  console.log('\nHeap after gc, per unit of work (fresh pipeline or loop and memory filesystem each time)');
  const execution = await bytesPer(3_000, criticsExecution);
  row('per staged-critics execution (3 stages)', `${execution.toFixed(0)} B`, 'over 3,000; target ≤ 100 B');
  const step = await bytesPer(5_000, loopStep);
  row('per loop step (2 stages)', `${step.toFixed(0)} B`, 'over 5,000; target ≤ 40 B');
}
