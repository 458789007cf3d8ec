// Goal evaluation against its floor: a plain synchronous script that only stats and reads + parses the same files.
import { readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GoalLoop } from '../src/index.js';
import { createNodeFileSystem } from '../src/node.js';
import { ms, ratio, row } from './format.js';
import { evaluationFixture } from './goal-loop.bench.js';

const RUN = 'runs/bench';

// What any evaluation must do at the least: stat every file criterion's path, read and parse the documents.
function floor(root: string, paths: readonly string[]): void {
  for (const path of paths) statSync(join(root, path));
  JSON.parse(readFileSync(join(root, RUN, 'artifacts/stages/11-feedback-loop/feedback.json'), 'utf8'));
  JSON.parse(readFileSync(join(root, RUN, 'goal-verdict.json'), 'utf8'));
}

// Times the floor and the evaluation alternately, one call each per round, so a change in the machine's load (the
// bench runs beside other work) hits both alike; the medians of the per-call times after a warm-up (20 rounds and
// half the budget, so the JIT has settled).
async function interleaved(
  floorTask: () => void,
  evaluateTask: () => Promise<unknown>,
  budgetMs: number,
): Promise<{ floorMs: number; evaluateMs: number }> {
  const warming = performance.now();
  for (let i = 0; i < 20 || performance.now() - warming < budgetMs / 2; i++) {
    floorTask();
    await evaluateTask();
  }
  const floors: number[] = [];
  const evaluations: number[] = [];
  const started = performance.now();
  while (floors.length < 15 || performance.now() - started < budgetMs) {
    let t = performance.now();
    floorTask();
    floors.push(performance.now() - t);
    t = performance.now();
    await evaluateTask();
    evaluations.push(performance.now() - t);
  }
  return { floorMs: median(floors), evaluateMs: median(evaluations) };
}

// The median of a list of times.
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** SPEC §10: evaluating 1,000 criteria costs at most 3× the floor; printed with the ratio at 100 / 1,000 / 10,000. */
export async function benchEvaluationFloor(): Promise<void> {
  console.log(
    '\nGoal evaluation against its floor (sync stat of each file + read/parse of feedback and verdicts), timed alternately',
  );
  for (const n of [100, 1_000, 10_000]) {
    const root = await mkdtemp(join(tmpdir(), 'goal-loop-bench-'));
    const goal = await evaluationFixture(root, n);
    const paths = (goal.criteria ?? []).flatMap((criterion) =>
      criterion.kind === 'file_exists' ? [criterion.path] : [],
    );
    const loop = new GoalLoop({
      fs: createNodeFileSystem(root),
      runDir: RUN,
      stages: ['11-feedback-loop'],
      runner: { run: async () => ({ status: 'passed' }) },
      goal,
    });
    const { floorMs, evaluateMs } = await interleaved(
      () => floor(root, paths),
      () => loop.evaluate(),
      1_000,
    );
    const target = n === 1_000 ? ' (target ≤ 3×)' : '';
    row(
      `${n.toLocaleString('en')} criteria`,
      ms(evaluateMs),
      `floor ${ms(floorMs)} → ${ratio(evaluateMs / floorMs)} the floor${target}`,
    );
    await rm(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchEvaluationFloor();
