import { describe, expect, it } from 'vitest';
import { createCriticsStageRunner, outcomeOf } from '../../src/critics/critics-stage-runner.js';
import { StagedPipeline } from '../../src/critics/staged-pipeline.js';
import { GoalLoop } from '../../src/goal/goal-loop.js';
import type { StageContext } from '../../src/goal/stage-runner.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { RUN, readEvents } from '../goal/helpers.js';
import { critic, generator, type HostCall } from './helpers.js';

const clock = () => createManualClock(Date.UTC(2026, 0, 1));

// A two-stage staged pipeline whose plan critic always retries (budget 1, then the given forced advance).
function pipeline(fs: ReturnType<typeof createMemoryFileSystem>, onBudgetSpent: 'accept_with_gaps' | 'escalate') {
  const calls: HostCall[] = [];
  const gen = generator(calls);
  return new StagedPipeline({
    fs,
    dir: `${RUN}/critics`,
    clock: clock(),
    stages: [
      {
        id: 'plan',
        generate: gen,
        critic: critic(calls, () => ({ decision: 'retry', issues: [{ issue: 'edge cases missing' }] })),
        retryBudget: 1,
        onBudgetSpent,
      },
      { id: 'code', generate: gen },
    ],
  });
}

const passing = { run: async () => ({ status: 'passed' as const, costUsd: 0.1 }) };

describe('createCriticsStageRunner through a real GoalLoop run', () => {
  it('gaps: the stage passes with the gaps in its detail, and the execution spend joins the run spend', async () => {
    const fs = createMemoryFileSystem();
    const runner = createCriticsStageRunner(pipeline(fs, 'accept_with_gaps'), {
      stageId: 'build',
      spec: () => ({ feature: 'login' }),
      fallback: passing,
    });
    const result = await new GoalLoop({ fs, clock: clock(), runDir: RUN, stages: ['intake', 'build'], runner }).run();
    expect(result).toMatchObject({ stoppedOn: 'complete', iterations: 1 });
    // plan twice (0.5 each) + its critic twice (0.25 each) + code once (0.5), plus the intake stage.
    expect(result.spentUsd).toBeCloseTo(2.1);
    const completed = (await readEvents(fs)).find(
      (event) => event.type === 'stage_completed' && event.stage === 'build',
    );
    expect(completed).toMatchObject({ status: 'passed' });
    expect(JSON.stringify(completed)).toContain('completed with gaps — plan: edge cases missing');
    expect(await fs.readText(`${RUN}/critics/build-1/state.json`)).not.toBeNull();
  });

  it('without stageId runs the stage the loop passes, and takes spec as a plain value', async () => {
    const fs = createMemoryFileSystem();
    const specs: unknown[] = [];
    const staged = pipeline(fs, 'accept_with_gaps');
    const run = staged.run.bind(staged);
    staged.run = (request) => {
      specs.push(request.spec);
      return run(request);
    };
    const runner = createCriticsStageRunner(staged, { spec: { feature: 'login' } });
    const result = await new GoalLoop({ fs, clock: clock(), runDir: RUN, stages: ['07-code'], runner }).run();
    expect(result).toMatchObject({ stoppedOn: 'complete', iterations: 1 });
    expect(specs).toEqual([{ feature: 'login' }]);
    expect(await fs.readText(`${RUN}/critics/07-code-1/state.json`)).not.toBeNull();
  });

  it('an escalation is needs_context, with the reason', async () => {
    const fs = createMemoryFileSystem();
    const runner = createCriticsStageRunner(pipeline(fs, 'escalate'), {
      stageId: 'build',
      spec: () => ({ feature: 'login' }),
      executionId: (context) => `exec-${context.iteration}`,
    });
    const result = await new GoalLoop({ fs, clock: clock(), runDir: RUN, stages: ['build'], runner }).run();
    expect(result.stoppedOn).not.toBe('complete');
    const completed = (await readEvents(fs)).find((event) => event.type === 'stage_completed');
    expect(completed).toMatchObject({ status: 'needs_context' });
    expect(JSON.stringify(completed)).toContain('escalated (retry_budget)');
  });

  it('other stages go to the fallback or fail; a fault is a failed stage, not a throw', async () => {
    const fs = createMemoryFileSystem();
    const runner = createCriticsStageRunner(pipeline(fs, 'escalate'), { stageId: 'build', spec: () => 1 });
    const context = { iteration: 1, signal: new AbortController().signal } as unknown as StageContext;
    expect(await runner.run('other', context)).toMatchObject({
      status: 'failed',
      detail: expect.stringContaining('only runs build'),
    });
    const held = createCriticsStageRunner(pipeline(fs, 'escalate'), {
      stageId: 'build',
      spec: () => {
        throw new Error('no spec file');
      },
    });
    expect(await held.run('build', context)).toMatchObject({
      status: 'failed',
      detail: 'execution build-1 could not run (no spec file)',
    });
    const aborted = new AbortController();
    aborted.abort(new Error('stop'));
    await expect(held.run('build', { ...context, signal: aborted.signal })).rejects.toThrow('no spec file');
  });

  it('maps a plain completion to passed', () => {
    const base = { executionId: 'e', escalation: null, outputs: {}, gaps: [], attempts: {}, backtracks: 0, trace: [] };
    expect(outcomeOf({ ...base, status: 'completed', reason: 'all 2 stages accepted', spentUsd: 1 })).toEqual({
      status: 'passed',
      costUsd: 1,
      detail: 'execution e completed: all 2 stages accepted',
    });
  });
});
