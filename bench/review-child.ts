// Child process of the review benchmark: one measurement per process (node --expose-gc --import tsx), so earlier runs
// do not pollute it. argv: <kind: time | heap> <subject> <root> <runDir> <paths.json> [iterations]; prints one JSON line.
import { readFileSync } from 'node:fs';
import { GCProfiler } from 'node:v8';
import { createNodeFileSystem } from '../src/node/file-system.js';
import { reviewModel, reviewPipeline } from '../src/review/core/review-pipeline.js';
import { type RunInputs, readRunInputs, readRunModel } from '../src/review/read-run.js';
import { runConsistencyReview } from '../src/review/run-review.js';

/**
 * What a child measures: read + JSON.parse of the files; the review end to end (runConsistencyReview); the review
 * without its outputs (reading + reviewing, nothing rendered or written); the pure pipeline (timed on read inputs).
 */
export type Subject = 'parse' | 'review' | 'read-review' | 'pipeline';

/** A heap measurement, in bytes above a settled baseline. */
export interface HeapResult {
  /** Still reachable at the end (the parsed files, or the inputs and the report). */
  readonly held: number;
  /** The highest heapUsed seen: a timer, phase samples, and the heap before every GC. */
  readonly peak: number;
  /** The highest heap a full GC left (run with --gc-global, every GC is full: the live peak). */
  readonly live: number;
}

const [kind, subject, root = '.', runDir = 'run', pathsFile = '', count = '3'] = process.argv.slice(2) as [
  'time' | 'heap',
  Subject,
  string,
  string,
  string,
  string,
];
const gc =
  (globalThis as { gc?: () => void }).gc ??
  (() => {
    throw new Error('run with --expose-gc');
  })();
const fs = createNodeFileSystem(root);
const paths = JSON.parse(readFileSync(pathsFile, 'utf8')) as string[];
const TIMESTAMP = '2025-01-31T12:00:00.000Z';
// What a heap measurement keeps reachable until its final sample (module scope: no optimizer can drop it).
const kept: unknown[] = [];

// Heap used now, after full collections.
function settled(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

// Heap used once the last run's garbage is gone: full collections, each after a 10 ms pause for pending callbacks,
// until two in a row no longer shrink it. Two back-to-back collections can leave 60-80 MB of a finished run in place
// (freed only after callbacks they queue have run), and a run that starts on a larger heap gets a higher
// old-generation limit from V8, which spares it the mark-compact a fresh process pays: a baseline that differs between
// subjects skews their ratio.
async function settledHeap(): Promise<number> {
  let used = settled();
  for (let round = 0, steady = 0; round < 8 && steady < 2; round++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    const now = settled();
    steady = now > used * 0.99 ? steady + 1 : 0;
    used = Math.min(used, now);
  }
  return used;
}

// Tracks the highest heapUsed (a 2 ms timer, phase samples, the heap before every GC) and the heap after full GCs.
function peakTracker(): { sample: () => void; stop: () => { peak: number; live: number } } {
  let peak = 0;
  const sample = (): void => {
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  };
  const timer = setInterval(sample, 2);
  const profiler = new GCProfiler();
  profiler.start();
  return {
    sample,
    stop: () => {
      clearInterval(timer);
      sample();
      let live = 0;
      for (const entry of profiler.stop()?.statistics ?? []) {
        peak = Math.max(peak, entry.beforeGC.heapStatistics.usedHeapSize);
        if (entry.gcType === 'MarkSweepCompact') live = Math.max(live, entry.afterGC.heapStatistics.usedHeapSize);
      }
      return { peak, live };
    },
  };
}

// The inputs the subject starts from: the read run for the pure pipeline, nothing for the others.
function prepare(): Promise<RunInputs | null> {
  return subject === 'pipeline' ? readRunInputs(fs, runDir) : Promise.resolve(null);
}

// Runs the subject once and returns what it produced (kept reachable by the caller).
async function runSubject(inputs: RunInputs | null): Promise<unknown> {
  if (inputs !== null) return reviewPipeline(inputs.contracts, { timestamp: TIMESTAMP });
  if (subject === 'parse')
    return Promise.all(paths.map(async (path) => JSON.parse((await fs.readText(path)) ?? 'null') as unknown));
  if (subject === 'read-review') return reviewModel((await readRunModel(fs, runDir)).model, { timestamp: TIMESTAMP });
  return runConsistencyReview({ fs, runDir, now: TIMESTAMP });
}

// One run whose result dies with this frame (a value left in the caller's registers would inflate the baseline).
async function warmUp(): Promise<void> {
  await runSubject(await prepare());
}

// The wall time of one run; its result dies with this frame, so it cannot reach into the next run's baseline.
async function timedRun(inputs: RunInputs | null): Promise<number> {
  const start = performance.now();
  await runSubject(inputs);
  return performance.now() - start;
}

// The median wall time of `count` runs, each from the same settled heap, after a third as many warm-up runs (the JIT
// settles).
async function time(): Promise<{ median: number }> {
  const inputs = await prepare();
  for (let index = 0; index < Math.max(1, Math.round(Number(count) / 3)); index++) await warmUp();
  const times: number[] = [];
  for (let index = 0; index < Number(count); index++) {
    await settledHeap();
    times.push(await timedRun(inputs));
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)] ?? Number.NaN };
}

// One heap measurement from a settled baseline after a warm-up run (compiled code is not data); the
// pipeline's peak includes reading its inputs. What the subject produced stays reachable until the end.
async function heap(): Promise<HeapResult> {
  await warmUp();
  const baseline = await settledHeap();
  const tracker = peakTracker();
  const inputs = await prepare();
  tracker.sample();
  kept.push(inputs, await runSubject(inputs));
  const { peak, live } = tracker.stop();
  const held = (await settledHeap()) - baseline;
  kept.length = 0;
  return { held, peak: peak - baseline, live: Math.max(live - baseline, held) };
}

process.stdout.write(`${JSON.stringify(kind === 'time' ? await time() : await heap())}\n`);
