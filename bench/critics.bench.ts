// Staged-critics benchmarks: one generator-plus-critic turn's harness overhead, and metrics over many traces.

import type { CriticDecisionInput } from '../src/contracts.js';
import { computeCriticMetrics, type ExecutionTrace, type StageDefinition, StagedPipeline } from '../src/critics.js';
import { createManualClock, createMemoryFileSystem } from '../src/testing.js';
import { medianMs, ms, ratio, row } from './format.js';

const TURNS = 10;
// Long enough for the JIT to settle: the first hundred runs are twice as slow as the rest.
const WARM = { time: 2_000, warmupTime: 2_000, warmupIterations: 200 };

// Ten stages whose no-op critics accept: one run is ten turns.
function noOpStages(answer: (stage: string, attempt: number) => CriticDecisionInput): StageDefinition[] {
  return Array.from({ length: TURNS }, (_, i) => ({
    id: `s${i}`,
    generate: async ({ attempt }) => ({ output: { attempt }, costUsd: 0.01 }),
    critic: async ({ stageId, attempt }) => answer(stageId, attempt),
  }));
}

// The harness time of one turn (state write, trace appends, lock) with memory adapters and no-op host functions.
async function turnOverhead(): Promise<void> {
  console.log('\nStagedPipeline: one generator-plus-critic turn, memory adapters, no-op host functions');
  const pipeline = new StagedPipeline({
    fs: createMemoryFileSystem(),
    dir: 'critics',
    clock: createManualClock(0),
    stages: noOpStages(() => ({ decision: 'accept' })),
  });
  let n = 0;
  const run = await medianMs('run of 10 turns', () => pipeline.run({ executionId: `e${n++}`, spec: { n } }), WARM);
  row('one turn inside run()', ms(run / TURNS), `(a run of ${TURNS} turns: ${ms(run)}; target well under 1 ms)`);
  let m = 0;
  const step = await medianMs(
    'step',
    async () => {
      const id = `s${Math.floor(m++ / TURNS)}`;
      await pipeline.step({ executionId: id, spec: { id } });
    },
    WARM,
  );
  row('one step() (takes and releases the lock)', ms(step));
}

// Traces of real executions (retries, a route back, an escalation), repeated under new ids up to `count`.
async function tracesOf(count: number): Promise<ExecutionTrace[]> {
  const answers: ((stage: string, attempt: number) => CriticDecisionInput)[] = [
    () => ({ decision: 'accept' }),
    (stage, attempt) =>
      stage === 's2' && attempt === 1 ? { decision: 'retry', issues: [{ issue: 'x' }] } : { decision: 'accept' },
    (stage, attempt) =>
      stage === 's5' && attempt === 1 ? { decision: 'route_back', routeTo: 's1' } : { decision: 'accept' },
    (stage) => (stage === 's7' ? { decision: 'escalate' } : { decision: 'accept' }),
  ];
  const templates: ExecutionTrace[] = [];
  for (const [i, answer] of answers.entries()) {
    const pipeline = new StagedPipeline({
      fs: createMemoryFileSystem(),
      dir: 'c',
      clock: createManualClock(0),
      stages: noOpStages(answer),
    });
    templates.push(await pipeline.run({ executionId: `t${i}`, spec: i }));
  }
  return Array.from({ length: count }, (_, i) => {
    const template = templates[i % templates.length] as ExecutionTrace;
    return { ...template, executionId: `x${i}` };
  });
}

// computeCriticMetrics over 10k and 100k traces: linear, and under a second at 100k.
async function metricsScaling(): Promise<void> {
  console.log('\ncomputeCriticMetrics over many traces (about 21 records each)');
  let previous: { n: number; t: number } | null = null;
  for (const n of [10_000, 100_000]) {
    const traces = await tracesOf(n);
    const t = await medianMs(`metrics ${n}`, () => computeCriticMetrics(traces), {
      time: 1_000,
      warmupIterations: 2,
      iterations: 3,
    });
    const note =
      previous === null ? '' : `${ratio(t / previous.t)} the time for ${n / previous.n}× the traces (linear = 10×)`;
    row(`${n.toLocaleString('en')} traces`, ms(t), note);
    previous = { n, t };
  }
}

/** Every staged-critics benchmark. */
export async function benchCritics(): Promise<void> {
  await turnOverhead();
  await metricsScaling();
}
