import { describe, expect, it } from 'vitest';
import { outcomeOf, runArm, SEED_PARAMETERS } from '../../examples/critics/economics-model.js';
import type { StagedResult } from '../../src/critics/contracts/result.js';

// A smaller population than the example's: the relations the seed claims, never its figures.
const params = { ...SEED_PARAMETERS, features: 120, seed: 'ci' };

describe('the economics example', async () => {
  const without = await runArm(params, false);
  const withCritics = await runArm(params, true);

  it('reworks less after deployment with critics, and runs more stage executions', () => {
    expect(withCritics.postDeploymentRework).toBeLessThan(without.postDeploymentRework);
    expect(withCritics.stageExecutionsPerFeature).toBeGreaterThan(without.stageExecutionsPerFeature);
    expect(withCritics.reworkComputeUsdPerFeature).toBeLessThan(without.reworkComputeUsdPerFeature);
    // Without critics every stage runs once: four generator calls per feature.
    expect(without.stageExecutionsPerFeature).toBe(4);
    expect(without.criticComputeUsdPerFeature).toBe(0);
  });

  it('is the same on every run of the same seed, and another seed draws another population', async () => {
    expect((await runArm(params, true)).metrics).toEqual(withCritics.metrics);
    const other = await runArm({ ...params, seed: 'other' }, true);
    expect(other.metrics).not.toEqual(withCritics.metrics);
  });

  it('the outcome blames the earliest defective stage and prices its late fix', () => {
    const result = {
      executionId: 'x',
      outputs: {
        plan: { defect: false },
        code: { defect: true },
        test: { defect: true },
        deploy: { defect: false },
      },
    } as unknown as StagedResult;
    // Code, test and deploy redone at 7 times their generator cost: 7 × (3 + 2 + 0.5).
    expect(outcomeOf(params, result)).toEqual({
      executionId: 'x',
      defect: true,
      origin: 'code',
      foundAt: 'post_deployment',
      reworkCostUsd: 38.5,
    });
  });
});
