import { describe, expect, it } from 'vitest';
import type { TraceRecord } from '../../src/critics/contracts/trace.js';
import type { CriticInput, GeneratorInput } from '../../src/critics/options.js';
import { StagedPipeline } from '../../src/critics/staged-pipeline.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { critic, generator, type HostCall, seedStages } from './helpers.js';

const DIR = '.goal-loop/critics';
const spec = { feature: 'login' };

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
    expect(result.trace).toEqual(events);
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

  it('escalates, never crashes, when host functions break their contract', async () => {
    const fs = createMemoryFileSystem();
    const run = (stages: ConstructorParameters<typeof StagedPipeline>[0]['stages'], executionId: string) =>
      new StagedPipeline({ fs, dir: DIR, stages, clock: createManualClock(0) }).run({ executionId, spec });
    const ok = async () => ({ output: 1 });
    const thrower = async (): Promise<never> => {
      throw new Error('model timeout');
    };
    expect(await run([{ id: 'a', generate: thrower }], 'g-throws')).toMatchObject({
      status: 'escalated',
      escalation: 'generator_failed',
      reason: 'the a generator threw: model timeout',
    });
    const noOutput = (async () => ({ costUsd: 1 })) as unknown as typeof ok;
    expect((await run([{ id: 'a', generate: noOutput }], 'g-bad')).reason).toContain('malformed result');
    expect(await run([{ id: 'a', generate: ok, critic: thrower }], 'c-throws')).toMatchObject({
      escalation: 'critic_failed',
      reason: 'the a critic threw: model timeout',
    });
    const later = async () => ({ decision: 'route_back' as const, routeTo: 'b' });
    const result = await run(
      [
        { id: 'a', generate: ok, critic: later },
        { id: 'b', generate: ok },
      ],
      'c-later',
    );
    expect(result).toMatchObject({ escalation: 'invalid_decision' });
    expect(result.trace[1]).toMatchObject({ kind: 'judged', decision: 'route_back', invalid: expect.any(String) });
  });

  it('escalates, never crashes, on a host return whose reading throws or that is nested too deep', async () => {
    const fs = createMemoryFileSystem();
    const run = (stages: ConstructorParameters<typeof StagedPipeline>[0]['stages'], executionId: string) =>
      new StagedPipeline({ fs, dir: DIR, stages, clock: createManualClock(0) }).run({ executionId, spec });
    const ok = async () => ({ output: 1 });
    const accept = async () => ({ decision: 'accept' as const });
    const getter = (async () => ({
      get output(): never {
        throw new Error('output getter');
      },
    })) as unknown as typeof ok;
    expect(await run([{ id: 'a', generate: getter, critic: accept }], 'g-getter')).toMatchObject({
      status: 'escalated',
      escalation: 'generator_failed',
      reason: expect.stringContaining('output getter'),
    });
    const decisionGetter = (async () => ({
      get decision(): never {
        throw new Error('decision getter');
      },
    })) as unknown as typeof accept;
    const issueGetter = (async () => ({
      decision: 'accept',
      issues: [
        {
          get issue(): never {
            throw new Error('issue getter');
          },
        },
      ],
    })) as unknown as typeof accept;
    for (const [critic, id, message] of [
      [decisionGetter, 'c-getter', 'decision getter'],
      [issueGetter, 'c-issue-getter', 'issue getter'],
    ] as const) {
      const result = await run([{ id: 'a', generate: ok, critic }], id);
      expect(result).toMatchObject({ status: 'escalated', escalation: 'invalid_decision' });
      expect(result.reason).toContain(message);
      expect(result.trace[1]).toMatchObject({ kind: 'judged', decision: 'invalid', invalid: expect.any(String) });
    }
    const deep = async () => {
      let output: unknown = 1;
      for (let depth = 0; depth < 20_000; depth++) output = [output];
      return { output } as { output: number };
    };
    const result = await run([{ id: 'a', generate: deep, critic: accept }], 'g-deep');
    expect(result).toMatchObject({ status: 'escalated', escalation: 'generator_failed' });
    expect(result.reason).toContain('nested too deep');
  });

  it('refuses bad options, a bad execution id and a changed spec', async () => {
    const fs = createMemoryFileSystem();
    const gen = async () => ({ output: 1 });
    expect(() => new StagedPipeline({ fs, dir: DIR, stages: [] })).toThrow(/INVALID_OPTIONS|Invalid StagedPipeline/);
    expect(
      () =>
        new StagedPipeline({
          fs,
          dir: DIR,
          stages: [
            { id: 'a', generate: gen },
            { id: 'a', generate: gen, retryBudget: -1 },
          ],
        }),
    ).toThrow(/unique.*|retryBudget/);
    const pipeline = new StagedPipeline({
      fs,
      dir: DIR,
      stages: [{ id: 'a', generate: gen }],
      clock: createManualClock(0),
    });
    await expect(pipeline.run({ executionId: '../x', spec })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
    await pipeline.run({ executionId: 'x', spec });
    await expect(pipeline.run({ executionId: 'x', spec: { other: true } })).rejects.toMatchObject({
      code: 'INVALID_OPTIONS',
    });
  });
});
