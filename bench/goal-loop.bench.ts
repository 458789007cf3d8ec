// Goal-loop benchmarks: evaluation scaling, command concurrency, log lookup, loop overhead.
import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readLatestIterationStarted } from '../src/goal/loop-events.js';
import { type GoalInput, GoalLoop } from '../src/index.js';
import { createExecaCommandRunner, createNodeFileSystem } from '../src/node.js';
import { createManualClock, createMemoryFileSystem } from '../src/testing.js';
import { medianMs, ms, ratio, row } from './format.js';

const RUN = 'runs/bench';

// Writes a run dir with `count` criteria: a third file_exists, a third metrics, a third judges (verdicts present).
export async function evaluationFixture(root: string, count: number): Promise<GoalInput> {
  await mkdir(join(root, RUN, 'artifacts/stages/11-feedback-loop'), { recursive: true });
  await mkdir(join(root, 'files'), { recursive: true });
  await writeFile(
    join(root, RUN, 'artifacts/stages/11-feedback-loop/feedback.json'),
    JSON.stringify({ summary: { critical_count: 0, score: 97 }, issues: [] }),
  );
  const criteria: NonNullable<GoalInput['criteria']> = [];
  const verdicts: object[] = [];
  for (let i = 0; i < count; i++) {
    if (i % 3 === 0) {
      await writeFile(join(root, 'files', `f${i}.txt`), 'x');
      criteria.push({ id: `file-${i}`, kind: 'file_exists', path: `files/f${i}.txt` });
    } else if (i % 3 === 1)
      criteria.push({
        id: `metric-${i}`,
        kind: 'metric_threshold',
        source: 'feedback',
        metric: 'summary.score',
        operator: '>=',
        value: 90,
      });
    else {
      criteria.push({ id: `judge-${i}`, kind: 'judge', question: `Is part ${i} right?` });
      verdicts.push({ criterion_id: `judge-${i}`, verdict: 'PASS' });
    }
  }
  await writeFile(join(root, RUN, 'goal-verdict.json'), JSON.stringify({ verdicts }));
  return { schema_version: 1, goal_id: 'bench', criteria };
}

// Evaluation time for 100 / 1,000 / 10,000 criteria on the Node filesystem.
async function evaluationScaling(): Promise<void> {
  console.log('\nGoal evaluation on the Node filesystem (files, metrics, judges; no commands)');
  let previous: { n: number; t: number } | null = null;
  for (const n of [100, 1_000, 10_000]) {
    const root = await mkdtemp(join(tmpdir(), 'goal-loop-bench-'));
    const goal = await evaluationFixture(root, n);
    const loop = new GoalLoop({
      fs: createNodeFileSystem(root),
      runDir: RUN,
      stages: ['11-feedback-loop'],
      runner: { run: async () => ({ status: 'passed' }) },
      goal,
    });
    const t = await medianMs(`evaluate ${n}`, () => loop.evaluate(), { time: 500 });
    const note =
      previous === null
        ? ''
        : `${ratio(t / previous.t)} the time for ${n / previous.n}× the criteria (linear = ${n / previous.n}×)`;
    row(`${n.toLocaleString('en')} criteria`, ms(t), `${((t / n) * 1000).toFixed(2)} µs/criterion  ${note}`);
    previous = { n, t };
    await rm(root, { recursive: true, force: true });
  }
}

// Eight 300 ms commands at concurrency 4 against the serial time.
async function commandConcurrency(): Promise<void> {
  console.log('\nCommand criteria: eight `sleep 0.3` commands');
  const root = await mkdtemp(join(tmpdir(), 'goal-loop-bench-'));
  const goal: GoalInput = {
    schema_version: 1,
    criteria: Array.from({ length: 8 }, (_, i) => ({ id: `c${i}`, kind: 'command' as const, command: 'sleep 0.3' })),
  };
  const make = (concurrency: number) =>
    new GoalLoop({
      fs: createNodeFileSystem(root),
      runDir: RUN,
      stages: ['s'],
      runner: { run: async () => ({ status: 'passed' }) },
      commands: createExecaCommandRunner(),
      goal,
      concurrency,
    });
  const serial = await medianMs('serial', () => make(1).evaluate(), { iterations: 2, time: 0 });
  const four = await medianMs('concurrency 4', () => make(4).evaluate(), { iterations: 3, time: 0 });
  row('concurrency 1 (serial)', ms(serial));
  row(
    'concurrency 4',
    ms(four),
    `${ratio(four / 600)} of the ideal 2 × 300 ms; ${ratio(serial / four)} faster than serial`,
  );
  await rm(root, { recursive: true, force: true });
}

// The latest loop_iteration_started in a 10-line and a 1,000,000-line events.jsonl.
async function latestIterationLookup(): Promise<void> {
  console.log('\nLatest loop_iteration_started lookup (read backwards from the end)');
  const root = await mkdtemp(join(tmpdir(), 'goal-loop-bench-'));
  const fs = createNodeFileSystem(root);
  const line = (i: number) =>
    `${JSON.stringify({ ts: '2026-01-01T00:00:00.000Z', type: i % 10 === 0 ? 'loop_iteration_started' : 'stage_completed', iteration: Math.floor(i / 10) + 1, max_iterations: 20, goal_id: 'g', seq: i, stage: 's' })}\n`;
  await writeFile(join(root, 'small.jsonl'), Array.from({ length: 10 }, (_, i) => line(i)).join(''));
  for (let block = 0; block < 100; block++)
    await appendFile(
      join(root, 'large.jsonl'),
      Array.from({ length: 10_000 }, (_, i) => line(block * 10_000 + i)).join(''),
    );
  const small = await medianMs('10 lines', () => readLatestIterationStarted(fs, 'small.jsonl'), { time: 300 });
  const large = await medianMs('1,000,000 lines', () => readLatestIterationStarted(fs, 'large.jsonl'), { time: 300 });
  row('10 lines', ms(small));
  row('1,000,000 lines', ms(large), `${ratio(large / small)} the 10-line time (target ≈ 1×)`);
  await rm(root, { recursive: true, force: true });
}

// Harness time of one loop iteration with memory adapters and no-op stages.
async function loopOverhead(): Promise<void> {
  console.log('\nOne loop iteration, memory adapters, four no-op stages');
  const stages = ['01-requirements', '07-code', '08-testing', '11-feedback-loop'];
  const make = () =>
    new GoalLoop({
      fs: createMemoryFileSystem(),
      runDir: RUN,
      stages,
      runner: { run: async () => ({ status: 'passed' }) },
      clock: createManualClock(0),
    });
  const loop = make();
  const warm = await medianMs('iteration', () => loop.step(), { time: 500 });
  const fresh = await medianMs('fresh loop', () => make().step(), { time: 500 });
  row('step(): lock, session, 4 stages, evaluation', ms(warm), 'target: well under 1 ms');
  row('the same on a new loop and a new run dir', ms(fresh), `${ratio(fresh / warm)} (first-use costs)`);
}

// Evaluation time for 10,000 against 100,000 goal-verdict.json entries naming one judge criterion.
async function verdictGrowth(): Promise<void> {
  console.log('\ngoal-verdict.json growth: verdicts for one judge criterion, memory filesystem');
  const times: number[] = [];
  for (const n of [10_000, 100_000]) {
    const fs = createMemoryFileSystem();
    const verdicts = Array.from({ length: n }, (_, i) => ({
      criterion_id: 'design',
      verdict: i % 2 === 0 ? 'FAIL' : 'PASS',
      iteration: 1,
    }));
    await fs.writeText(`${RUN}/goal-verdict.json`, JSON.stringify(verdicts));
    const loop = new GoalLoop({
      fs,
      runDir: RUN,
      stages: ['11-feedback-loop'],
      runner: { run: async () => ({ status: 'passed' }) },
      goal: { schema_version: 1, goal_id: 'bench', criteria: [{ id: 'design', kind: 'judge', question: 'Right?' }] },
    });
    times.push(await medianMs(`verdicts ${n}`, () => loop.evaluate(), { time: 500, warmupIterations: 2 }));
  }
  const [small = 0, large = 0] = times;
  row('10,000 vs 100,000 verdicts', `${ms(small)} / ${ms(large)}`, `${ratio(large / small)} (linear = 10×)`);
}

export async function benchGoalLoop(): Promise<void> {
  await evaluationScaling();
  await verdictGrowth();
  await commandConcurrency();
  await latestIterationLookup();
  await loopOverhead();
}
