import type { CriticDecisionInput } from '../../src/critics/contracts/decision.js';
import type {
  Critic,
  CriticInput,
  Generator,
  GeneratorInput,
  StageDefinition,
  StagedPipelineOptions,
} from '../../src/critics/options.js';
import { StagedPipeline } from '../../src/critics/staged-pipeline.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';

/** The directory the pipelines of the tests keep their executions in. */
export const DIR = '.goal-loop/critics';
/** The spec the pipelines of the tests run on. */
export const spec = { feature: 'login' };

/** One host call, as a test records it. */
export interface HostCall {
  readonly kind: 'generate' | 'judge';
  readonly stage: string;
  readonly attempt: number;
}

/** A generator whose output is `{ stage, attempt }` (at 0.5 USD), recording each call. */
export function generator(calls: HostCall[], seen: GeneratorInput[] = []): Generator {
  return async (input) => {
    calls.push({ kind: 'generate', stage: input.stageId, attempt: input.attempt });
    seen.push(input);
    return { output: { stage: input.stageId, attempt: input.attempt }, costUsd: 0.5 };
  };
}

/** A critic that answers by (stage, attempt), recording each call. */
export function critic(
  calls: HostCall[],
  answer: (stage: string, attempt: number) => CriticDecisionInput,
  seen: CriticInput[] = [],
): Critic {
  return async (input) => {
    calls.push({ kind: 'judge', stage: input.stageId, attempt: input.attempt });
    seen.push(input);
    return { ...answer(input.stageId, input.attempt), costUsd: 0.25 };
  };
}

/**
 * The seed's shape: plan, code, test with critics, deploy without. The code critic routes back to plan
 * on its first attempt; the plan critic retries its first attempt; everything else is accepted.
 */
export function seedStages(calls: HostCall[]): StageDefinition[] {
  const gen = generator(calls);
  const answer = (stage: string, attempt: number): CriticDecisionInput => {
    if (stage === 'plan' && attempt === 1) return { decision: 'retry', issues: [{ issue: 'no acceptance criteria' }] };
    if (stage === 'code' && attempt === 1)
      return { decision: 'route_back', routeTo: 'plan', issues: [{ issue: 'interface missing in plan' }] };
    return { decision: 'accept' };
  };
  return [
    { id: 'plan', generate: gen, critic: critic(calls, answer) },
    { id: 'code', generate: gen, critic: critic(calls, answer) },
    { id: 'test', generate: gen, critic: critic(calls, answer) },
    { id: 'deploy', generate: gen },
  ];
}

/** A pipeline in which plan's critic retries its first attempt (confidence 0.4), then accepts; code is accepted; deploy has no critic. */
export function oneRetry(options: Partial<StagedPipelineOptions> = {}) {
  const fs = createMemoryFileSystem();
  const calls: HostCall[] = [];
  const answer = (stage: string, attempt: number): CriticDecisionInput =>
    stage === 'plan' && attempt === 1
      ? { decision: 'retry', issues: [{ issue: 'no acceptance criteria' }], confidence: 0.4 }
      : { decision: 'accept', confidence: 0.9 };
  const stages: StageDefinition[] = [
    { id: 'plan', generate: generator(calls), critic: critic(calls, answer) },
    { id: 'code', generate: generator(calls), critic: critic(calls, answer) },
    { id: 'deploy', generate: generator(calls) },
  ];
  const pipeline = new StagedPipeline({ fs, dir: DIR, stages, clock: createManualClock(0), ...options });
  return { fs, pipeline };
}
