// The seed's economic case as a seeded model run through the real StagedPipeline: features go through Planner, Plan
// Critic, Coder, Code Critic, Test Runner, Test Critic and Deploy, once with the critics and once without; each
// generator call may carry a defect born at its stage, each critic catches a defect at a documented rate. Every draw
// is a hash of the seed and the call, so a run (and a resumed one) is the same every time.

import type { OutcomeRecord } from 'goal-loop/contracts';
import {
  type Critic,
  type CriticMetrics,
  computeCriticMetrics,
  type Generator,
  type StageDefinition,
  StagedPipeline,
  type StagedResult,
} from 'goal-loop/critics';
import { createMemoryFileSystem } from 'goal-loop/testing';

type StageId = 'plan' | 'code' | 'test' | 'deploy';
const STAGES: readonly StageId[] = ['plan', 'code', 'test', 'deploy'];

/** The model's parameters: every figure the example prints follows from these. */
export interface EconomicsParameters {
  readonly features: number;
  readonly seed: string;
  /** Chance that one generator call's output carries a defect born at its stage. */
  readonly defectRate: Readonly<Record<'plan' | 'code' | 'test', number>>;
  /** Chance that a stage's critic rejects (retries) an output carrying a defect born at its stage. */
  readonly detection: Readonly<Record<'plan' | 'code' | 'test', number>>;
  /** Chance that a critic rejects a clean output (a false alarm: one more attempt for nothing). */
  readonly falseAlarm: number;
  /** Chance that the Code (Test) Critic finds a defect in the accepted plan (code) and routes back to it. */
  readonly upstreamDetection: number;
  /** What one generator call of each stage costs, in USD. */
  readonly generatorCostUsd: Readonly<Record<StageId, number>>;
  /** What one critic call costs, in USD. */
  readonly criticCostUsd: number;
  /** A defect found after deployment costs this many times the generator work from its origin stage to deploy. */
  readonly lateFixMultiplier: number;
}

/** The parameters the example runs with. */
export const SEED_PARAMETERS: EconomicsParameters = {
  features: 400,
  seed: 'seed-002',
  defectRate: { plan: 0.12, code: 0.22, test: 0.12 },
  detection: { plan: 0.78, code: 0.78, test: 0.78 },
  falseAlarm: 0.14,
  upstreamDetection: 0.5,
  generatorCostUsd: { plan: 1, code: 3, test: 2, deploy: 0.5 },
  criticCostUsd: 0.2,
  lateFixMultiplier: 7,
};

/** One arm of the comparison: what the population cost and how much of it needed rework after deployment. */
export interface ArmFigures {
  readonly features: number;
  /** Share of features whose deployed work carried a defect. */
  readonly postDeploymentRework: number;
  /** Generator and critic calls per feature. */
  readonly stageExecutionsPerFeature: number;
  /** Generator calls beyond each stage's first (retries, route backs) plus post-deployment fixes, per feature. */
  readonly reworkComputeUsdPerFeature: number;
  readonly criticComputeUsdPerFeature: number;
  readonly metrics: CriticMetrics;
}

// A share in [0, 1) from a key: FNV-1a, then murmur3's finaliser so nearby keys spread.
function draw(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return ((h ^ (h >>> 16)) >>> 0) / 4_294_967_296;
}

interface Output {
  readonly stage: StageId;
  readonly attempt: number;
  readonly defect: boolean;
}
const outputOf = (value: unknown): Output => value as Output;
const featureOf = (spec: unknown): string => (spec as { feature: string }).feature;

// A generator whose output carries a defect born at its stage at the stage's rate (deploy adds none).
const generator =
  (p: EconomicsParameters, stage: StageId): Generator =>
  async ({ spec, attempt }) => {
    const rate = stage === 'deploy' ? 0 : p.defectRate[stage];
    const defect = draw(`${p.seed}|${featureOf(spec)}|${stage}|${attempt}|defect`) < rate;
    return { output: { stage, attempt, defect }, costUsd: p.generatorCostUsd[stage] };
  };

// A critic that routes back when it finds a defect in the stage before (code and test), else retries a defective
// output at its detection rate and a clean one at the false-alarm rate.
const critic =
  (p: EconomicsParameters, stage: 'plan' | 'code' | 'test', upstream?: StageId): Critic =>
  async ({ spec, output, accepted, attempt }) => {
    const key = `${p.seed}|${featureOf(spec)}|${stage}|${attempt}`;
    const cost = { costUsd: p.criticCostUsd };
    const before = upstream === undefined ? undefined : accepted[upstream];
    if (
      upstream !== undefined &&
      before !== undefined &&
      outputOf(before).defect &&
      draw(`${key}|up`) < p.upstreamDetection
    )
      return {
        decision: 'route_back',
        routeTo: upstream,
        issues: [{ issue: `defect in the ${upstream} output` }],
        ...cost,
      };
    const chance = outputOf(output).defect ? p.detection[stage] : p.falseAlarm;
    if (draw(`${key}|catch`) < chance)
      return { decision: 'retry', issues: [{ issue: `defect in the ${stage} output` }], ...cost };
    return { decision: 'accept', ...cost };
  };

/** The seed's pipeline, with its three critics or without any. */
export function economicsStages(p: EconomicsParameters, withCritics: boolean): StageDefinition[] {
  const critics: Partial<Record<StageId, Critic>> = withCritics
    ? { plan: critic(p, 'plan'), code: critic(p, 'code', 'plan'), test: critic(p, 'test', 'code') }
    : {};
  return STAGES.map((id) => {
    const judge = critics[id];
    return { id, generate: generator(p, id), ...(judge === undefined ? {} : { critic: judge }) };
  });
}

/** What the bug tracker says of a feature: the earliest stage whose deployed output carried a defect, and its fix. */
export function outcomeOf(p: EconomicsParameters, result: StagedResult): OutcomeRecord {
  const origin = STAGES.find((stage) => {
    const output = result.outputs[stage];
    return output !== undefined && outputOf(output).defect;
  });
  if (origin === undefined) return { executionId: result.executionId, defect: false };
  const redo = STAGES.slice(STAGES.indexOf(origin)).reduce((sum, stage) => sum + p.generatorCostUsd[stage], 0);
  const reworkCostUsd = p.lateFixMultiplier * redo;
  return { executionId: result.executionId, defect: true, origin, foundAt: 'post_deployment', reworkCostUsd };
}

/** Runs the population through the real StagedPipeline (on the memory filesystem) with or without critics. */
export async function runArm(p: EconomicsParameters, withCritics: boolean): Promise<ArmFigures> {
  const pipeline = new StagedPipeline({
    fs: createMemoryFileSystem(),
    dir: '.goal-loop/economics',
    stages: economicsStages(p, withCritics),
    maxBacktracks: 3,
  });
  const results: StagedResult[] = [];
  for (let i = 0; i < p.features; i++) {
    const feature = `feature-${String(i).padStart(4, '0')}`;
    results.push(await pipeline.run({ executionId: feature, spec: { feature } }));
  }
  const outcomes = results.map((result) => outcomeOf(p, result));
  const metrics = computeCriticMetrics(results, { outcomes });
  const calls = results.reduce(
    (sum, result) => sum + result.trace.filter((r) => r.kind === 'generated' || r.kind === 'judged').length,
    0,
  );
  const lateFixes = outcomes.reduce((sum, o) => sum + (o.defect ? (o.reworkCostUsd ?? 0) : 0), 0);
  const n = p.features;
  return {
    features: n,
    postDeploymentRework: outcomes.filter((o) => o.defect).length / n,
    stageExecutionsPerFeature: calls / n,
    reworkComputeUsdPerFeature: (metrics.overall.reworkCostUsd + lateFixes) / n,
    criticComputeUsdPerFeature: metrics.overall.criticCostUsd / n,
    metrics,
  };
}
