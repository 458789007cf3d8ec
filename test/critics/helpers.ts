import type { CriticDecisionInput } from '../../src/critics/contracts/decision.js';
import type { Critic, CriticInput, Generator, GeneratorInput, StageDefinition } from '../../src/critics/options.js';

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
