// Consistency-review benchmarks: time against read + JSON.parse, scaling between sizes, peak heap against the parsed input.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ms, ratio, row } from './format.js';
import type { HeapResult, Subject } from './review-child.js';
import { benchLongLists } from './review-long-lists.js';
import type { MillionResult } from './review-million.js';
import { programmeSize, writeProgramme } from './review-programme.js';

const RUN = 'runs/bench';
const SCALES = [1, 10, 100] as const;
const PROJECT = fileURLToPath(new URL('..', import.meta.url));
const CHILD = fileURLToPath(new URL('./review-child.ts', import.meta.url));
const MILLION = fileURLToPath(new URL('./review-million.ts', import.meta.url));
// SPEC §10: a programme of a million requirements and no stories (millions of findings) completes in bounded memory.
const MILLION_REQUIREMENTS = 1_000_000;
const run = promisify(execFile);
// Timed runs per child: enough for a stable median, few enough to keep the whole benchmark short.
const ITERATIONS: Readonly<Record<number, number>> = { 1: 15, 10: 8, 100: 3 };
// Rounds of the four subjects, one child each, in turn: a ratio is taken within a round (the machine's speed drifts
// between minutes on a shared host), and the rounds' median is printed.
const ROUNDS = 5;
const SUBJECTS: readonly Subject[] = ['parse', 'review', 'read-review', 'pipeline'];

type Times = Readonly<Record<Subject, number>>;

// The median of some numbers.
function medianOf(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

// Per subject: its median time over the rounds, and the median over the rounds of its time against read + parse; and
// the lowest and highest of the review's ratios (the spread the host's noise gives a round).
interface Measured {
  readonly times: Times;
  readonly ratios: Times;
  readonly reviewRange: readonly [number, number];
}

// What the heap rows compare: the parsed files held, and the review and the pure pipeline under default and full-GC settings.
interface Heaps {
  readonly parsed: HeapResult;
  readonly review: HeapResult;
  readonly pipeline: HeapResult;
  readonly reviewLive: HeapResult;
  readonly pipelineLive: HeapResult;
}

// Runs one measurement in a fresh `node --expose-gc --import tsx` child, so earlier runs do not pollute it.
async function child<T>(args: readonly string[], flags: readonly string[] = []): Promise<T> {
  const { stdout } = await run(process.execPath, ['--expose-gc', ...flags, '--import', 'tsx', CHILD, ...args], {
    cwd: PROJECT,
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as T;
}

// Times of read + parse, the review end to end, the review without outputs, and the pure pipeline, in interleaved
// rounds (one fresh child per subject and round).
async function measureTimes(root: string, pathsFile: string, scale: number): Promise<Measured> {
  const count = String(ITERATIONS[scale] ?? 3);
  const rounds: Times[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const times: Partial<Record<Subject, number>> = {};
    for (const subject of SUBJECTS)
      times[subject] = (await child<{ median: number }>(['time', subject, root, RUN, pathsFile, count])).median;
    rounds.push(times as Times);
  }
  const over = (pick: (times: Times) => number): number => medianOf(rounds.map(pick));
  const perSubject = (pick: (subject: Subject) => (times: Times) => number): Times =>
    Object.fromEntries(SUBJECTS.map((subject) => [subject, over(pick(subject))])) as Times;
  const reviewRatios = rounds.map((times) => times.review / times.parse);
  return {
    times: perSubject((subject) => (times) => times[subject]),
    ratios: perSubject((subject) => (times) => times[subject] / times.parse),
    reviewRange: [Math.min(...reviewRatios), Math.max(...reviewRatios)],
  };
}

// The heap measurements of one scale; `--gc-global` makes every GC a full one, so the heap after each is the live set.
async function measureHeaps(root: string, pathsFile: string): Promise<Heaps> {
  const heap = (subject: Subject, flags: readonly string[] = []): Promise<HeapResult> =>
    child<HeapResult>(['heap', subject, root, RUN, pathsFile], flags);
  return {
    parsed: await heap('parse'),
    review: await heap('review'),
    pipeline: await heap('pipeline'),
    reviewLive: await heap('review', ['--gc-global']),
    pipelineLive: await heap('pipeline', ['--gc-global']),
  };
}

const mb = (bytes: number): string => `${(bytes / 1048576).toFixed(1)} MB`;

// Prints the time rows of one scale.
function printTimes(scale: number, bytes: number, { times, ratios, reviewRange }: Measured): void {
  const size = programmeSize(scale);
  console.log(
    `\n  ${scale}×: ${size.frs.toLocaleString('en')} FRs, ${size.stories.toLocaleString('en')} stories, ${size.tests.toLocaleString('en')} test cases, ${size.files.toLocaleString('en')} code files; ${mb(bytes)} of compact JSON`,
  );
  row(
    'read + JSON.parse of the contract files',
    ms(times.parse),
    `median of ${ROUNDS} interleaved rounds; ratios within a round`,
  );
  row(
    'runConsistencyReview, end to end',
    ms(times.review),
    `${ratio(ratios.review)} read+parse (rounds ${ratio(reviewRange[0])}–${ratio(reviewRange[1])}; target ≤ 2× at 100×)`,
  );
  row(
    '  of which reading + reviewing (no outputs)',
    ms(times['read-review']),
    `${ratio(ratios['read-review'])} read+parse; outputs ${ms(times.review - times['read-review'])}`,
  );
  row('reviewPipeline alone, on already-read inputs', ms(times.pipeline), `${ratio(ratios.pipeline)} read+parse`);
}

// Prints the scaling ratios between consecutive sizes.
function printScaling(all: ReadonlyMap<number, Times>): void {
  console.log('\n  Scaling (10× the contracts; target: review ≤ 12× the time)');
  for (let index = 1; index < SCALES.length; index++) {
    const from = all.get(SCALES[index - 1] ?? 0);
    const to = all.get(SCALES[index] ?? 0);
    if (from === undefined || to === undefined) continue;
    const label = `${SCALES[index - 1]}× → ${SCALES[index]}×`;
    row(`${label}: runConsistencyReview`, ratio(to.review / from.review), `read+parse ${ratio(to.parse / from.parse)}`);
    row(`${label}: reviewPipeline`, ratio(to.pipeline / from.pipeline));
  }
}

// Prints the heap rows of one scale: peaks against the parsed files held (and against the peak of reading them).
function printHeap(scale: number, heaps: Heaps): void {
  const { parsed } = heaps;
  console.log(`\n  ${scale}×: heap above a settled baseline (a fresh child process per row)`);
  row(
    'parsed contract files, held at once',
    mb(parsed.held),
    `reading + parsing them peaks at ${mb(parsed.peak)} (${ratio(parsed.peak / parsed.held)})`,
  );
  const rows = [
    ['runConsistencyReview', heaps.review, heaps.reviewLive],
    ['readRunInputs + reviewPipeline', heaps.pipeline, heaps.pipelineLive],
  ] as const;
  for (const [label, heap, live] of rows) {
    row(
      `${label}: live peak`,
      mb(live.live),
      `${ratio(live.live / parsed.held)} the parsed files (target ≤ ~1.5×; every GC full)`,
    );
    row(
      `${label}: peak heapUsed`,
      mb(heap.peak),
      `${ratio(heap.peak / parsed.held)} the parsed files, ${ratio(heap.peak / parsed.peak)} their read+parse peak (default GC)`,
    );
  }
}

// Runs the review of a million requirements with no stories in a fresh child and prints its time and peak RSS.
async function benchMillion(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'goal-loop-review-million-'));
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', MILLION, root, String(MILLION_REQUIREMENTS)], {
      cwd: PROJECT,
      maxBuffer: 1 << 20,
    });
    const result = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as MillionResult;
    console.log(
      `\n  ${result.requirements.toLocaleString('en')} requirements, no stories (${result.criticalCount.toLocaleString('en')} CRITICAL findings)`,
    );
    row(
      'runConsistencyReview, end to end',
      ms(result.ms),
      `peak RSS ${mb(result.peakRssBytes)}; feedback.json ${mb(result.feedbackBytes)} with ${result.issues.toLocaleString('en')} issues listed`,
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** The consistency-review benchmark: 1×, 10× and 100× synthetic programmes on the real filesystem, and a million requirements. */
export async function benchReview(): Promise<void> {
  console.log('\nConsistency review of a synthetic programme (canonical contracts on the Node filesystem)');
  const times = new Map<number, Times>();
  const heaps: [number, Heaps][] = [];
  for (const scale of SCALES) {
    const root = await mkdtemp(join(tmpdir(), 'goal-loop-review-bench-'));
    try {
      const { paths, bytes } = await writeProgramme(root, RUN, scale);
      const pathsFile = join(root, 'paths.json');
      await writeFile(pathsFile, JSON.stringify(paths));
      const measured = await measureTimes(root, pathsFile, scale);
      times.set(scale, measured.times);
      printTimes(scale, bytes, measured);
      heaps.push([scale, await measureHeaps(root, pathsFile)]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }
  printScaling(times);
  await benchLongLists();
  for (const [scale, measured] of heaps) printHeap(scale, measured);
  await benchMillion();
}
