import { describe, expect, it } from 'vitest';
import type { TraceRecord } from '../../src/critics/contracts/trace.js';
import type { CriticInput, GeneratorInput } from '../../src/critics/options.js';
import { StagedPipeline } from '../../src/critics/staged-pipeline.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { critic, DIR, generator, type HostCall, seedStages, spec } from './helpers.js';

describe('StagedPipeline on the memory filesystem', () => {
  it('runs the seed pipeline: a retry, a route back, then every stage accepted', async () => {
    const fs = createMemoryFileSystem();
    const calls: HostCall[] = [];
    const events: TraceRecord[] = [];
    const pipeline = new StagedPipeline({
      fs,
      dir: DIR,
      stages: seedStages(calls),
      clock: createManualClock(0),
      onEvent: (record) => events.push(record),
    });
    const result = await pipeline.run({ executionId: 'feat-42', spec });
    expect(result).toMatchObject({
      executionId: 'feat-42',
      status: 'completed',
      escalation: null,
      backtracks: 1,
      attempts: { plan: 3, code: 2, test: 1, deploy: 1 },
      gaps: [],
    });
    expect(result.outputs).toEqual({
      plan: { stage: 'plan', attempt: 3 },
      code: { stage: 'code', attempt: 2 },
      test: { stage: 'test', attempt: 1 },
      deploy: { stage: 'deploy', attempt: 1 },
    });
    expect(result.spentUsd).toBe(7 * 0.5 + 6 * 0.25);
    expect(events).toEqual(result.trace.map((record) => ({ ...record, type: record.kind })));
    expect(result.trace.at(-1)).toMatchObject({ kind: 'finished', status: 'completed' });
    expect(await fs.readText(`${DIR}/feat-42/execution.lock`)).toBeNull();
    expect(pipeline.stageIds).toEqual(['plan', 'code', 'test', 'deploy']);
    // A finished execution is answered from its record, with no call.
    const again = await pipeline.run({ executionId: 'feat-42', spec });
    expect(again).toEqual(result);
    expect(calls).toHaveLength(13);
  });

  it('feeds generators the issues, the routing reason and the upstream gaps; critics see everything before', async () => {
    const calls: HostCall[] = [];
    const generated: GeneratorInput[] = [];
    const judged: CriticInput[] = [];
    const gen = generator(calls, generated);
    const pipeline = new StagedPipeline({
      fs: createMemoryFileSystem(),
      dir: DIR,
      stages: [
        {
          id: 'plan',
          generate: gen,
          critic: critic(calls, () => ({ decision: 'retry', issues: [{ issue: 'vague' }] }), judged),
          retryBudget: 1,
        },
        {
          id: 'code',
          generate: gen,
          critic: critic(
            calls,
            (_, attempt) => (attempt === 1 ? { decision: 'route_back', routeTo: 'plan' } : { decision: 'accept' }),
            judged,
          ),
        },
      ],
      clock: createManualClock(0),
    });
    const result = await pipeline.run({ executionId: 'e1', spec });
    expect(result).toMatchObject({ status: 'completed', gaps: [{ stage: 'plan', issues: [{ issue: 'vague' }] }] });
    expect(generated.map((input) => [input.stageId, input.attempt, input.feedback.kind])).toEqual([
      ['plan', 1, 'initial'],
      ['plan', 2, 'retry'],
      ['code', 1, 'initial'],
      ['plan', 3, 'route_back'],
      ['plan', 4, 'retry'],
      ['code', 2, 'route_back'],
    ]);
    expect(generated[1]?.feedback.issues).toEqual([{ issue: 'vague' }]);
    expect(generated[2]?.feedback.gaps).toEqual([{ stage: 'plan', issues: [{ issue: 'vague' }] }]);
    expect(generated[2]?.accepted).toEqual({ plan: { stage: 'plan', attempt: 2 } });
    expect(generated[3]?.feedback.reason).toBe('the code critic routed back to plan');
    expect(generated[3]?.accepted).toEqual({});
    // The code stage runs again because its critic routed back: it hears so, once plan is redone.
    expect(generated[5]?.feedback).toMatchObject({ issues: [], reason: 'the code critic routed back to plan' });
    const codeCritic = judged.find((input) => input.stageId === 'code');
    expect(codeCritic?.spec).toEqual(spec);
    expect(codeCritic?.judgements.map((j) => [j.stage, j.decision])).toEqual([
      ['plan', 'retry'],
      ['plan', 'retry'],
    ]);
  });

  it('step() runs one generator-plus-critic turn at a time', async () => {
    const calls: HostCall[] = [];
    const pipeline = new StagedPipeline({
      fs: createMemoryFileSystem(),
      dir: DIR,
      stages: seedStages(calls),
      clock: createManualClock(0),
    });
    const request = { executionId: 'stepped', spec };
    expect(await pipeline.step(request)).toEqual({
      done: false,
      next: { kind: 'generate', stage: 'plan', attempt: 2 },
    });
    expect(calls).toEqual([
      { kind: 'generate', stage: 'plan', attempt: 1 },
      { kind: 'judge', stage: 'plan', attempt: 1 },
    ]);
    // Seven turns in all (plan ×3, code ×2, test, deploy): the seventh returns the result.
    let turns = 1;
    let step = await pipeline.step(request);
    for (turns += 1; !step.done; turns += 1) step = await pipeline.step(request);
    expect(turns).toBe(7);
    expect(step.done && step.result.status).toBe('completed');
    expect(calls).toHaveLength(13);
  });
});
