import { describe, expect, it } from 'vitest';
import type { CriticDecisionInput } from '../../src/critics/contracts/decision.js';
import type { GeneratorInput } from '../../src/critics/options.js';
import { StagedPipeline } from '../../src/critics/staged-pipeline.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { critic, DIR, generator, type HostCall, spec } from './helpers.js';

const ID = 'feat-7';
const logout = { issue: 'plan lacks logout', location: 'plan.md', requiredChange: 'add a logout story' };

type Answer = (stage: string, attempt: number) => CriticDecisionInput;

// plan → design → code, critics on every stage; `answer` decides by (stage, attempt). Each pipeline made reads the
// execution from `fs` afresh; `feedback()` is what every generator call was told.
function setup(answer: Answer) {
  const fs = createMemoryFileSystem();
  const calls: HostCall[] = [];
  const generated: GeneratorInput[] = [];
  const gen = generator(calls, generated);
  const stages = ['plan', 'design', 'code'].map((id) => ({ id, generate: gen, critic: critic(calls, answer) }));
  const pipeline = () => new StagedPipeline({ fs, dir: DIR, stages, clock: createManualClock(0) });
  const feedback = () =>
    generated.map(({ stageId, attempt, feedback: { kind, issues, reason } }) => ({
      at: `${stageId}#${attempt}`,
      kind,
      issues,
      reason,
    }));
  return { fs, pipeline, feedback };
}

async function runPipeline(answer: Answer) {
  const { pipeline, feedback } = setup(answer);
  const result = await pipeline().run({ executionId: ID, spec });
  return { result, feedback: feedback() };
}

const codeRoutesBack: Answer = (stage, attempt) =>
  stage === 'code' && attempt === 1
    ? { decision: 'route_back', routeTo: 'plan', issues: [logout] }
    : { decision: 'accept' };
const routed = { kind: 'route_back', issues: [logout], reason: 'the code critic routed back to plan' };
const initial = { kind: 'initial', issues: [], reason: null };

describe('StagedPipeline: the feedback of the stages a route back runs again', () => {
  it('the target, every stage after it and the stage whose critic routed back hear why they run again', async () => {
    const { result, feedback } = await runPipeline(codeRoutesBack);
    expect(result).toMatchObject({ status: 'completed', backtracks: 1 });
    expect(feedback).toEqual([
      { at: 'plan#1', ...initial },
      { at: 'design#1', ...initial },
      { at: 'code#1', ...initial },
      { at: 'plan#2', ...routed },
      { at: 'design#2', ...routed },
      { at: 'code#2', ...routed },
    ]);
  });

  it('the route back is told once per stage: a retry after it carries that critic’s own issues', async () => {
    const vague = { issue: 'design is vague' };
    const { feedback } = await runPipeline((stage, attempt) => {
      if (stage === 'code' && attempt === 1) return { decision: 'route_back', routeTo: 'design', issues: [logout] };
      if (stage === 'design' && attempt === 2) return { decision: 'retry', issues: [vague] };
      return { decision: 'accept' };
    });
    expect(feedback.map(({ at, kind }) => `${at} ${kind}`)).toEqual([
      'plan#1 initial',
      'design#1 initial',
      'code#1 initial',
      'design#2 route_back',
      'design#3 retry',
      'code#2 route_back',
    ]);
    expect(feedback[4]?.issues).toEqual([vague]);
    expect(feedback[5]).toMatchObject({ issues: [logout], reason: 'the code critic routed back to design' });
  });

  it('a second route back before the first reached its critic’s stage: each stage hears the one that reran it', async () => {
    const api = { issue: 'design names no API' };
    const { feedback } = await runPipeline((stage, attempt) => {
      if (stage === 'code' && attempt === 1) return { decision: 'route_back', routeTo: 'design', issues: [logout] };
      if (stage === 'design' && attempt === 2) return { decision: 'route_back', routeTo: 'plan', issues: [api] };
      return { decision: 'accept' };
    });
    const byCode = { kind: 'route_back', issues: [logout], reason: 'the code critic routed back to design' };
    const byDesign = { kind: 'route_back', issues: [api], reason: 'the design critic routed back to plan' };
    expect(feedback.slice(3)).toEqual([
      { at: 'design#2', ...byCode },
      { at: 'plan#2', ...byDesign },
      { at: 'design#3', ...byDesign },
      { at: 'code#2', ...byCode },
    ]);
  });

  it('what a route back owes the later stages survives a resume: each step by a new pipeline', async () => {
    const { fs, pipeline, feedback } = setup(codeRoutesBack);
    let step = await pipeline().step({ executionId: ID, spec });
    while (!step.done) step = await pipeline().step({ executionId: ID, spec });
    expect(feedback().slice(4)).toEqual([
      { at: 'design#2', ...routed },
      { at: 'code#2', ...routed },
    ]);
    const state = JSON.parse((await fs.readText(`${DIR}/${ID}/state.json`)) ?? '') as Record<string, unknown>;
    expect(state.rerun_causes).toEqual({});
  });

  it('an execution recorded before route backs were owed downstream resumes (nothing owed)', async () => {
    const { fs, pipeline, feedback } = setup(codeRoutesBack);
    const request = { executionId: ID, spec };
    // plan, design, code, then the route back to plan: plan's redo is next.
    for (let turn = 0; turn < 3; turn++) await pipeline().step(request);
    const path = `${DIR}/${ID}/state.json`;
    const { rerun_causes: owed, ...older } = JSON.parse((await fs.readText(path)) ?? '') as Record<string, unknown>;
    expect(owed).toEqual({ design: routed, code: routed });
    await fs.writeText(path, JSON.stringify(older));
    expect(await pipeline().run(request)).toMatchObject({ status: 'completed', backtracks: 1 });
    expect(feedback().slice(3)).toEqual([
      { at: 'plan#2', ...routed },
      { at: 'design#2', ...initial },
      { at: 'code#2', ...initial },
    ]);
  });
});

describe('StagedPipeline: stage ids that name Object.prototype members', () => {
  it('toString, constructor and valueOf run as any stage: initial feedback, counted attempts, a record that resumes', async () => {
    const fs = createMemoryFileSystem();
    const seen: [string, string | undefined, number][] = [];
    const stages = ['toString', 'constructor', 'valueOf'].map((id) => ({
      id,
      generate: async (input: GeneratorInput) => {
        seen.push([id, input.feedback.kind, input.attempt]);
        return { output: id };
      },
      critic: async () => ({ decision: 'accept' as const }),
    }));
    const options = { fs, dir: '.goal-loop/critics', clock: createManualClock(0), stages };
    const result = await new StagedPipeline(options).run({ executionId: 'proto', spec: {} });
    expect(result).toMatchObject({ status: 'completed', attempts: { toString: 1, constructor: 1, valueOf: 1 } });
    expect(seen).toEqual([
      ['toString', 'initial', 1],
      ['constructor', 'initial', 1],
      ['valueOf', 'initial', 1],
    ]);
    expect(await new StagedPipeline(options).run({ executionId: 'proto', spec: {} })).toMatchObject({
      status: 'completed',
    });
  });
});
