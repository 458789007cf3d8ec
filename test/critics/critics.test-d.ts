import type { StageRunner } from 'goal-loop';
import type { CriticDecisionInput } from 'goal-loop/contracts';
import {
  type CriticInput,
  type CriticMetrics,
  computeCriticMetrics,
  createCriticsStageRunner,
  type ExecutionTrace,
  StagedPipeline,
  type StagedResult,
  type StagedStepResult,
} from 'goal-loop/critics';
import { createMemoryFileSystem } from 'goal-loop/testing';
import { describe, expectTypeOf, it } from 'vitest';

const pipeline = new StagedPipeline({
  fs: createMemoryFileSystem(),
  dir: 'critics',
  stages: [
    {
      id: 'plan',
      generate: async ({ feedback, accepted }) => ({
        output: { tasks: feedback.issues.length, upstream: Object.keys(accepted) },
      }),
      critic: async ({ output, judgements }: CriticInput) =>
        judgements.length > 2 || output === null
          ? { decision: 'accept' }
          : { decision: 'retry', issues: [{ issue: 'x' }] },
    },
  ],
});

describe('goal-loop/critics types', () => {
  it('run() gives a StagedResult, step() a done/next union, and results are traces', () => {
    expectTypeOf(pipeline.run({ executionId: 'e', spec: { a: 1 } })).resolves.toEqualTypeOf<StagedResult>();
    expectTypeOf(pipeline.step({ executionId: 'e', spec: null })).resolves.toEqualTypeOf<StagedStepResult>();
    expectTypeOf<StagedResult>().toExtend<ExecutionTrace>();
    expectTypeOf(computeCriticMetrics).parameter(0).toEqualTypeOf<readonly ExecutionTrace[]>();
    expectTypeOf(computeCriticMetrics([])).toEqualTypeOf<CriticMetrics>();
  });

  it('a critic returns one of four decisions; a route back names its stage', () => {
    expectTypeOf<CriticDecisionInput['decision']>().toEqualTypeOf<'accept' | 'retry' | 'route_back' | 'escalate'>();
    expectTypeOf<CriticDecisionInput['routeTo']>().toEqualTypeOf<string | undefined>();
  });

  it('the stage runner is the goal loop’s StageRunner', () => {
    expectTypeOf(createCriticsStageRunner(pipeline, { stageId: 'build', spec: () => 1 })).toEqualTypeOf<StageRunner>();
  });
});
