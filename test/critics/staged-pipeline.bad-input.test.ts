import { describe, expect, it } from 'vitest';
import { StagedPipeline } from '../../src/critics/staged-pipeline.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { DIR, spec } from './helpers.js';

// Bad input from outside: host functions that break their contract escalate the execution, never crash it; bad
// options, a bad execution id and a changed spec are refused.

describe('StagedPipeline on the memory filesystem', () => {
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
