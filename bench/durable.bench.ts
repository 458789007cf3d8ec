// The cost of a durable step, side by side with LangGraph.js: a goal-loop iteration on the Node filesystem against
// one superstep checkpointed by SqliteSaver, the same on memory adapters against MemorySaver, a staged-critics turn
// on disk, a fix-loop step over a session's 50 attempts, and the fsyncs and system calls of an iteration (strace).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StagedPipeline } from '../src/critics/staged-pipeline.js';
import { createNodeFileSystem } from '../src/node/file-system.js';
import type { FileSystem } from '../src/ports/file-system.js';
import { createMemoryFileSystem } from '../src/testing/memory-file-system.js';
import { fixLoopStepMeans } from './durable-fix-loop.js';
import { iterate } from './durable-fixture.js';
import { bullmqRates } from './durable-queue.js';
import { interleaved, type TimedTask } from './durable-rounds.js';
import { iterationSyscalls } from './durable-strace.js';
import { ms, ratio, row } from './format.js';
import { type LangGraph, loadLangGraph, type OneNodeGraph } from './langgraph-load.js';

const TURNS = 10;

// One superstep per call, each on a thread of its own (a fresh run, as each loop iteration is).
function superstep(graph: OneNodeGraph): () => Promise<unknown> {
  let thread = 0;
  return () => graph.invoke({ n: 0 }, { configurable: { thread_id: `t${thread++}` } });
}

// A staged-critics run of TURNS no-op turns on `fs`, one execution per call.
function criticsRun(fs: FileSystem): () => Promise<unknown> {
  const pipeline = new StagedPipeline({
    fs,
    dir: 'critics',
    stages: Array.from({ length: TURNS }, (_, i) => ({
      id: `s${i}`,
      generate: async () => ({ output: { i } }),
      critic: async () => ({ decision: 'accept' as const }),
    })),
  });
  let n = 0;
  return () => pipeline.run({ executionId: `e${n++}`, spec: { n } });
}

// What the filesystem under `dir` is (the disk rows must not run on tmpfs).
async function filesystemOf(dir: string): Promise<string> {
  const { statfs } = await import('node:fs/promises');
  const { type } = await statfs(dir);
  return (
    ({ 61267: 'ext4', 16914836: 'tmpfs', 1481003842: 'xfs', 2435016766: 'btrfs' } as Record<number, string>)[type] ??
    `type 0x${type.toString(16)}`
  );
}

async function onDisk(lg: LangGraph | null, dir: string): Promise<void> {
  console.log(`\nOne durable step on disk (${dir}: ${await filesystemOf(dir)}), interleaved rounds`);
  const fs = createNodeFileSystem(join(dir, 'loop'));
  const tasks: TimedTask[] = [
    { name: 'loop', once: () => iterate(fs) },
    { name: 'critics', once: criticsRun(createNodeFileSystem(join(dir, 'critics'))), units: TURNS },
  ];
  if (lg !== null)
    tasks.push(
      { name: 'full', once: superstep(lg.sqliteGraph(join(dir, 'full.db'), 'FULL')) },
      { name: 'shipped', once: superstep(lg.sqliteGraph(join(dir, 'shipped.db'), null)) },
    );
  const t = await interleaved(tasks, 9, 10);
  const loop = t.get('loop') ?? Number.NaN;
  const critics = t.get('critics') ?? Number.NaN;
  const full = t.get('full');
  const shipped = t.get('shipped');
  row('goal-loop iteration, 1 no-op stage, Node fs', ms(loop), '(a fresh run: lock, record, stage, evaluation, stop)');
  row('staged-critics turn, Node fs', ms(critics), `(a run of ${TURNS} turns / ${TURNS})`);
  if (full === undefined || shipped === undefined) return;
  row(`LangGraph ${lg?.version} superstep, SqliteSaver FULL`, ms(full), '(PRAGMA synchronous=FULL)');
  row('LangGraph superstep, SqliteSaver as shipped', ms(shipped), '(WAL, synchronous=NORMAL)');
  row('iteration / superstep at FULL', ratio(loop / full), 'target ≤ 2.0×');
  row('iteration / superstep as shipped', ratio(loop / shipped));
  row('critics turn / superstep at FULL', ratio(critics / full), 'target ≤ 1.0×');
}

async function inMemory(lg: LangGraph | null): Promise<void> {
  console.log('\nOne step in memory, interleaved rounds');
  const fs = createMemoryFileSystem();
  const tasks: TimedTask[] = [{ name: 'loop', once: () => iterate(fs) }];
  if (lg !== null) tasks.push({ name: 'memory', once: superstep(lg.memoryGraph()) });
  const t = await interleaved(tasks, 9, 100);
  const loop = t.get('loop') ?? Number.NaN;
  row('goal-loop iteration, memory filesystem', ms(loop));
  const saver = t.get('memory');
  if (saver === undefined) return;
  row('LangGraph superstep, MemorySaver', ms(saver));
  row('iteration / superstep', ratio(loop / saver), 'target ≤ 0.7×');
}

/** Every durable-step benchmark. */
export async function benchDurable(): Promise<void> {
  const loaded = loadLangGraph();
  const lg = 'skipped' in loaded ? null : loaded;
  if (lg === null) console.log(`\nLangGraph rows skipped: ${'skipped' in loaded ? loaded.skipped : ''}`);
  const dir = await mkdtemp(join(tmpdir(), 'goal-loop-bench-durable-'));
  try {
    await onDisk(lg, dir);
    await inMemory(lg);
    const counts = await iterationSyscalls(dir);
    console.log('\nSystem calls of one iteration on the Node fs (strace -f -c, N iterations less the setup, / N)');
    if ('skipped' in counts) row('fsyncs and syscalls per iteration', 'n/a', counts.skipped);
    else {
      row('fsyncs per iteration (fsync + fdatasync)', counts.fsyncs.toFixed(1), 'target ≤ 4');
      row('syscalls per iteration', counts.syscalls.toFixed(0), `target ≤ 200 (${counts.top})`);
    }
    const steps = await fixLoopStepMeans();
    console.log('\nFix-loop iteration step, memory adapters, 50 attempts a session');
    row('mean of attempts 1–10 / 41–50', `${ms(steps.first)} / ${ms(steps.last)}`, 'target ≤ 0.5 ms, flat');
    row('last / first', ratio(steps.last / steps.first));
    const rates = await bullmqRates(dir);
    console.log('\nBullMQ: one job per fresh one-stage run, 2 worker processes, Node fs');
    if ('skipped' in rates) row('steps/s at 2 workers', 'n/a', rates.skipped);
    else {
      row('no-op jobs/s at 2 workers', rates.noop.toFixed(0), `(Redis ${rates.redis})`);
      row('loop steps/s at 2 workers', rates.steps.toFixed(1), 'target ≥ 3× before');
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
