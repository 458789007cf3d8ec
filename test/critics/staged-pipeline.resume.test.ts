import { describe, expect, it } from 'vitest';
import type { GeneratorInput } from '../../src/critics/options.js';
import { StagedPipeline } from '../../src/critics/staged-pipeline.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { DIR, type HostCall, seedStages, spec } from './helpers.js';

describe('StagedPipeline: abort, listeners and the lock', () => {
  it('an abort rejects with its reason and the execution resumes where it stood', async () => {
    const fs = createMemoryFileSystem();
    const calls: HostCall[] = [];
    const controller = new AbortController();
    const stages = seedStages(calls);
    const plan = stages[0];
    if (plan === undefined) throw new Error('no plan stage');
    const aborting = {
      ...plan,
      generate: async (input: GeneratorInput) => {
        const out = await plan.generate(input);
        if (input.attempt === 2) controller.abort(new Error('stop now'));
        return out;
      },
    };
    const options = { fs, dir: DIR, clock: createManualClock(0) };
    const first = new StagedPipeline({ ...options, stages: [aborting, ...stages.slice(1)], signal: controller.signal });
    await expect(first.run({ executionId: 'ab', spec })).rejects.toThrow('stop now');
    await expect(first.run({ executionId: 'ab', spec })).rejects.toThrow('stop now');
    const result = await new StagedPipeline({ ...options, stages }).run({ executionId: 'ab', spec });
    expect(result.status).toBe('completed');
    // The aborted call was not committed: plan attempt 2 ran again, nothing else twice.
    expect(result.attempts).toEqual({ plan: 3, code: 2, test: 1, deploy: 1 });
    expect(
      calls.filter((call) => call.kind === 'generate' && call.stage === 'plan' && call.attempt === 2),
    ).toHaveLength(2);
  });

  it('resumed by a pipeline whose stage lost the critic it waits for: INVALID_OPTIONS at its path, nothing changed', async () => {
    const fs = createMemoryFileSystem();
    const controller = new AbortController();
    const options = { fs, dir: DIR, clock: createManualClock(0) };
    const critic = async () => {
      controller.abort(new Error('stop while judging'));
      return { decision: 'accept' as const };
    };
    const generate = async () => ({ output: 'draft' });
    const judged = new StagedPipeline({
      ...options,
      stages: [{ id: 'a', generate, critic }],
      signal: controller.signal,
    });
    await expect(judged.run({ executionId: 'x', spec })).rejects.toThrow('stop while judging');
    const state = await fs.readText(`${DIR}/x/state.json`);
    const withoutCritic = new StagedPipeline({ ...options, stages: [{ id: 'a', generate }] });
    await expect(withoutCritic.run({ executionId: 'x', spec })).rejects.toMatchObject({
      code: 'INVALID_OPTIONS',
      message: expect.stringContaining(
        '$.stages[0].critic: execution x was saved waiting for the a critic to judge its output',
      ),
      issues: [{ code: 'critic_removed', path: ['stages', 0, 'critic'] }],
    });
    expect(await fs.readText(`${DIR}/x/state.json`)).toBe(state);
    expect(
      await new StagedPipeline({
        ...options,
        stages: [{ id: 'a', generate, critic: async () => ({ decision: 'accept' as const }) }],
      }).run({ executionId: 'x', spec }),
    ).toMatchObject({ status: 'completed' });
  });

  it('a listener that throws breaks nothing; a held execution is RUN_LOCKED', async () => {
    const fs = createMemoryFileSystem();
    const clock = createManualClock(0);
    await fs.createExclusive(
      `${DIR}/busy/execution.lock`,
      JSON.stringify({ owner: 'other', token: 't', pid: 1, heartbeat_at: 0, heartbeat_iso: '', timeout_ms: 60_000 }),
    );
    const pipeline = new StagedPipeline({
      fs,
      dir: DIR,
      clock,
      stages: [{ id: 'a', generate: async () => ({ output: 'x' }) }],
      onEvent: () => {
        throw new Error('listener bug');
      },
    });
    await expect(pipeline.run({ executionId: 'busy', spec })).rejects.toMatchObject({ code: 'RUN_LOCKED' });
    expect(await pipeline.run({ executionId: 'free', spec })).toMatchObject({ status: 'completed' });
  });

  it('two runners on one execution: one runs it, the other is RUN_LOCKED and nothing runs twice', async () => {
    const fs = createMemoryFileSystem();
    const calls: HostCall[] = [];
    const options = { fs, dir: DIR, clock: createManualClock(0), stages: seedStages(calls) };
    const outcomes = await Promise.allSettled([
      new StagedPipeline(options).run({ executionId: 'race', spec }),
      new StagedPipeline(options).run({ executionId: 'race', spec }),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(outcomes.find((outcome) => outcome.status === 'rejected')).toMatchObject({
      reason: { code: 'RUN_LOCKED' },
    });
    expect(calls).toHaveLength(13);
  });
});
