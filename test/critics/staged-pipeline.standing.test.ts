import { describe, expect, it } from 'vitest';
import type { CriticDecisionInput } from '../../src/critics/contracts/decision.js';
import type { StagedResult } from '../../src/critics/contracts/result.js';
import type { JudgedRecord } from '../../src/critics/contracts/trace.js';
import type { StageDefinition, StagedPipelineOptions } from '../../src/critics/options.js';
import { StagedPipeline } from '../../src/critics/staged-pipeline.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { critic, DIR, generator, type HostCall, spec } from './helpers.js';

const accept = (): CriticDecisionInput => ({ decision: 'accept' });

// plan and code with critics that accept (code's critic answers with `codeAnswer`), deploy without one.
function pipeline(over: Partial<StagedPipelineOptions>, second?: StageDefinition['secondCritic'], codeAnswer = accept) {
  const calls: HostCall[] = [];
  const stages: StageDefinition[] = [
    { id: 'plan', generate: generator(calls), critic: critic(calls, accept) },
    {
      id: 'code',
      generate: generator(calls),
      critic: critic(calls, codeAnswer),
      ...(second === undefined ? {} : { secondCritic: second }),
    },
    { id: 'deploy', generate: generator(calls) },
  ];
  const fs = createMemoryFileSystem();
  return { calls, run: new StagedPipeline({ fs, dir: DIR, stages, clock: createManualClock(0), ...over }) };
}
const judged = (result: StagedResult): JudgedRecord[] =>
  result.trace.filter((record): record is JudgedRecord => record.kind === 'judged');

describe('StagedPipeline: a critic on probation', () => {
  it('without a second critic, its accept escalates for a human review instead of advancing', async () => {
    const { calls, run } = pipeline({ standing: { code: 'probation' } });
    const result = await run.run({ executionId: 'p1', spec });
    expect(result).toMatchObject({ status: 'escalated', escalation: 'probation_review' });
    expect(result.reason).toContain('the code critic is on probation');
    expect(Object.keys(result.outputs)).toEqual(['plan']);
    expect(calls.some((call) => call.stage === 'deploy')).toBe(false);
    expect(judged(result).at(-1)).toMatchObject({
      stage: 'code',
      decision: 'accept',
      standing: 'probation',
      sampled: true,
      action: { kind: 'escalate', reason: 'probation_review' },
    });
    // The plan critic stands full: its record carries no standing.
    expect(judged(result)[0]).not.toHaveProperty('standing');
  });

  it('with a second critic, the accept goes to it; its retry is routed, its accept advances', async () => {
    const seen: number[] = [];
    const second = async ({ attempt }: { attempt: number }) => {
      seen.push(attempt);
      return attempt === 1 ? { decision: 'retry' as const, issues: [{ issue: 'missed a null check' }] } : accept();
    };
    const { run } = pipeline({ standing: { code: 'probation' } }, second);
    const result = await run.run({ executionId: 'p2', spec });
    expect(result).toMatchObject({ status: 'completed', attempts: { plan: 1, code: 2, deploy: 1 } });
    expect(seen).toEqual([1, 2]);
    const code = judged(result).filter((record) => record.stage === 'code');
    expect(code.map((record) => [record.attempt, record.by ?? 'critic', record.decision, record.action.kind])).toEqual([
      [1, 'critic', 'accept', 'confirm'],
      [1, 'second_critic', 'retry', 'retry'],
      [2, 'critic', 'accept', 'confirm'],
      [2, 'second_critic', 'accept', 'accept'],
    ]);
  });

  it('checks the drawn share of accepts: the same seed draws the same, rate 0 checks none', async () => {
    const draw = async (reviewRate: number, seed: string) => {
      const { run } = pipeline({ standing: { code: 'probation' }, probation: { reviewRate, seed } });
      const results = [];
      for (let i = 0; i < 40; i++) results.push(await run.run({ executionId: `f${i}`, spec }));
      return results.map((result) => result.status);
    };
    const half = await draw(0.5, 's1');
    expect(await draw(0.5, 's1')).toEqual(half);
    const escalated = half.filter((status) => status === 'escalated').length;
    expect(escalated).toBeGreaterThan(8);
    expect(escalated).toBeLessThan(32);
    expect(await draw(0.5, 's2')).not.toEqual(half);
    expect(new Set(await draw(0, 's1'))).toEqual(new Set(['completed']));
  });

  it('a revoked critic is recorded, not acted on: a human gates the stage, whatever it decided', async () => {
    for (const answer of [accept, (): CriticDecisionInput => ({ decision: 'retry' })]) {
      const { run } = pipeline({ standing: { code: 'revoked' } }, undefined, answer);
      const result = await run.run({ executionId: 'r', spec });
      expect(result).toMatchObject({ status: 'escalated', escalation: 'critic_revoked', attempts: { code: 1 } });
      expect(judged(result).at(-1)).toMatchObject({ stage: 'code', standing: 'revoked' });
    }
  });

  it('refuses a standing for an unknown stage or a stage without a critic, and a lone second critic', () => {
    const gen = async () => ({ output: 1 });
    const fs = createMemoryFileSystem();
    expect(
      () =>
        new StagedPipeline({
          fs,
          dir: DIR,
          stages: [{ id: 'a', generate: gen, secondCritic: async () => ({ decision: 'accept' }) }],
          standing: { a: 'probation', b: 'revoked' },
          probation: { reviewRate: 2 },
        }),
    ).toThrow(
      expect.objectContaining({
        code: 'INVALID_OPTIONS',
        issues: expect.arrayContaining([
          expect.objectContaining({ path: ['probation', 'reviewRate'] }),
          expect.objectContaining({ code: 'second_critic_alone', path: ['stages', 0, 'secondCritic'] }),
          expect.objectContaining({ code: 'no_critic', path: ['standing', 'a'] }),
          expect.objectContaining({ code: 'unknown_stage', path: ['standing', 'b'] }),
        ]),
      }),
    );
  });
});
