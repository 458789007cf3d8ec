// The seed's pipeline (Planner, Plan Critic, Coder, Code Critic, Test Runner, Test Critic, Deploy) with deterministic
// host functions: each generator writes its artifact, each critic reads the output's remaining flaws.
import type { FileSystem } from 'goal-loop';
import type { Critic, Generator, StageDefinition } from 'goal-loop/critics';

/** The defects injected into one feature: how many passes each stage needs, and how often the plan is the root cause. */
export interface Defects {
  readonly plan: number;
  /** Times the Code Critic finds the plan to be the root cause and routes back to the Planner. */
  readonly planRootCause: number;
  readonly code: number;
  readonly test: number;
}

/** The execution's spec: the feature and its injected defects. */
export interface FeatureSpec {
  readonly feature: string;
  readonly defects: Defects;
}

// The spec as the host reads it back (the pipeline passes any JSON).
const specOf = (value: unknown): FeatureSpec => value as FeatureSpec;

// A generator that writes `artifacts/<feature>/<stage>.json`; its output carries the flaws left at this attempt.
function writer(fs: FileSystem, stage: string, flawsAt: (spec: FeatureSpec, attempt: number) => number): Generator {
  return async ({ stageId, spec, attempt, feedback, accepted }) => {
    const feature = specOf(spec);
    const output = {
      stage,
      feature: feature.feature,
      attempt,
      flaws: Math.max(0, flawsAt(feature, attempt)),
      upstream: Object.keys(accepted),
      addressed: feedback.issues.map((issue) => issue.issue),
    };
    await fs.writeText(`artifacts/${feature.feature}/${stageId}.json`, `${JSON.stringify(output, null, 2)}\n`);
    return { output, costUsd: 0.02 };
  };
}

// Flaws in the output of a generator call (`{ flaws }` as the writer produced it).
const flawsOf = (output: unknown): number => (output as { flaws: number }).flaws;

// What a critic says of an output with `flaws` left: retry while there are any.
function judgeFlaws(what: string, output: unknown): Awaited<ReturnType<Critic>> {
  const flaws = flawsOf(output);
  if (flaws === 0) return { decision: 'accept', issues: [], costUsd: 0.005 };
  return {
    decision: 'retry',
    issues: [{ issue: `${flaws} ${what}`, requiredChange: `fix the ${what}` }],
    costUsd: 0.005,
  };
}

// A critic that retries while the output has flaws.
const retryWhileFlawed =
  (what: string): Critic =>
  async ({ output }) =>
    judgeFlaws(what, output);

// The Code Critic: routes back to the Planner while the plan is still the root cause (it counts its own route backs
// in the cascading judgements), else retries buggy code.
const codeCritic: Critic = async ({ output, spec, judgements }) => {
  const routed = judgements.filter((j) => j.stage === 'code' && j.decision === 'route_back').length;
  if (routed < specOf(spec).defects.planRootCause) {
    return {
      decision: 'route_back',
      routeTo: 'plan',
      issues: [{ issue: 'the plan has no interface for the session store', location: 'plan.tasks' }],
      costUsd: 0.005,
    };
  }
  return judgeFlaws('bugs', output);
};

/** The seven nodes of the seed as four stages (the review critic of `withReviewer` never blocks). */
export function seedStages(fs: FileSystem, options: { readonly withReviewer?: boolean } = {}): StageDefinition[] {
  const firstPass = (spec: FeatureSpec, attempt: number, key: 'plan' | 'code' | 'test') =>
    spec.defects[key] - (attempt - 1);
  const stages: StageDefinition[] = [
    {
      id: 'plan',
      generate: writer(fs, 'plan', (s, a) => firstPass(s, a, 'plan')),
      critic: retryWhileFlawed('vague acceptance criteria'),
    },
    { id: 'code', generate: writer(fs, 'code', (s, a) => firstPass(s, a, 'code')), critic: codeCritic },
    {
      id: 'test',
      generate: writer(fs, 'test', (s, a) => firstPass(s, a, 'test')),
      critic: retryWhileFlawed('untested paths'),
      retryBudget: 2,
      onBudgetSpent: 'accept_with_gaps',
    },
  ];
  if (options.withReviewer === true) {
    stages.push({
      id: 'review',
      generate: writer(fs, 'review', () => 0),
      critic: async () => ({ decision: 'accept', costUsd: 0.005 }),
    });
  }
  stages.push({ id: 'deploy', generate: writer(fs, 'deploy', () => 0) });
  return stages;
}
