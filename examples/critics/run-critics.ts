// Staged critics on the seed's pipeline: four executions that show each path, then 200 seeded executions with
// injected defects and the metrics report they print. Exits non-zero when a path or a health flag is not as expected.
import { computeCriticMetrics, renderCriticReport, StagedPipeline, type StagedResult } from 'goal-loop/critics';
import { createNodeFileSystem } from 'goal-loop/node';
import { createMemoryFileSystem } from 'goal-loop/testing';
import { tempProject } from '../shared.js';
import { type Defects, seedStages } from './seed-pipeline.js';

const project = await tempProject('critics');
const fs = createNodeFileSystem(project.root);
let failed = false;
const check = (ok: boolean, what: string): void => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failed = true;
};
const none: Defects = { plan: 0, planRootCause: 0, code: 0, test: 0 };
const run = (pipeline: StagedPipeline, feature: string, defects: Partial<Defects>): Promise<StagedResult> =>
  pipeline.run({ executionId: feature, spec: { feature, defects: { ...none, ...defects } } });
const line = (result: StagedResult): string =>
  `${result.executionId}: ${result.status} — ${result.reason} (attempts ${JSON.stringify(result.attempts)}, backtracks ${result.backtracks}, $${result.spentUsd.toFixed(3)})`;

try {
  const pipeline = new StagedPipeline({ fs, dir: '.goal-loop/critics', stages: seedStages(fs), maxBacktracks: 3 });

  console.log('Four executions of the seed pipeline\n');
  const retried = await run(pipeline, 'retry-within-stage', { plan: 1 });
  console.log(line(retried));
  check(
    retried.status === 'completed' && retried.attempts.plan === 2,
    'the Plan Critic retries once, then it completes',
  );

  const routed = await run(pipeline, 'route-back-to-planner', { planRootCause: 1 });
  console.log(line(routed));
  check(
    routed.status === 'completed' && routed.backtracks === 1 && routed.attempts.plan === 2,
    'the Code Critic routes back to the Planner; the second plan is accepted',
  );

  const gaps = await run(pipeline, 'budget-spent-gaps', { test: 5 });
  console.log(line(gaps));
  console.log(`  gaps: ${JSON.stringify(gaps.gaps)}`);
  check(
    gaps.status === 'completed' && gaps.gaps[0]?.stage === 'test',
    'the Test Critic spends its budget and the stage advances with gaps',
  );

  const spec = await run(pipeline, 'spec-problem', { planRootCause: 4 });
  console.log(line(spec));
  check(
    spec.status === 'escalated' && spec.escalation === 'spec_problem' && spec.backtracks === 3,
    'the fourth route back escalates as a spec problem',
  );

  // The fleet runs on the memory filesystem: 200 executions of fsync'd writes would only measure the disk.
  console.log('\n200 seeded executions (a review stage whose critic never blocks is added)\n');
  const memory = createMemoryFileSystem();
  const fleet = new StagedPipeline({
    fs: memory,
    dir: '.goal-loop/fleet',
    stages: seedStages(memory, { withReviewer: true }),
  });
  const random = mulberry32(42);
  const pick = (chance: number, most: number): number => (random() < chance ? 1 + Math.floor(random() * most) : 0);
  const results: StagedResult[] = [];
  for (let i = 0; i < 200; i++) {
    const defects = { plan: pick(0.3, 1), planRootCause: pick(0.06, 1), code: pick(0.25, 2), test: pick(0.1, 3) };
    results.push(await run(fleet, `feature-${String(i).padStart(3, '0')}`, defects));
  }
  const metrics = computeCriticMetrics(results);
  console.log(renderCriticReport(metrics));
  const flags = metrics.flags.map((flag) => `${flag.code}${flag.stage === undefined ? '' : `:${flag.stage}`}`);
  check(flags.includes('critic_never_blocks:review'), 'the review critic that never blocks is flagged as overhead');
  check(!flags.includes('systemic_upstream_failure'), 'backtracks stay under 25%: no systemic upstream failure');
} finally {
  await project.dispose();
}
if (failed) process.exitCode = 1;

// A small seeded PRNG, so the 200 executions are the same on every run.
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
