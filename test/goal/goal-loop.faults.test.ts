import { describe, expect, it } from 'vitest';
import type { GoalEvaluation } from '../../src/goal/core/evaluate.js';
import { STAGE_ABORT_GRACE_MS } from '../../src/goal/stage-call.js';
import type { StageContext, StageRunner } from '../../src/goal/stage-runner.js';
import type { StageOutcome } from '../../src/ports/stage-runner.js';
import { createScriptedStageRunner, type ScriptedStep } from '../../src/testing/scripted-stage-runner.js';
import { deferred, expectStop, harness, PATHS, passed, readEvents, readState } from './helpers.js';

// Stages that never settle, stages that overrun, costs reported late, spend recorded by others.

// A step that tells the test it started and then never settles (it ignores its signal).
function hangs(started: () => void, signals: AbortSignal[] = []): ScriptedStep<GoalEvaluation> {
  return (ctx: StageContext) => {
    signals.push(ctx.signal);
    started();
    return new Promise<StageOutcome>(() => undefined);
  };
}

// A runner whose stages answer from a table of functions (no scripted double: these report after their signal fired).
function runnerOf(steps: Record<string, (ctx: StageContext, call: number) => Promise<StageOutcome>>): StageRunner {
  const calls = new Map<string, number>();
  return {
    run: (stage, ctx) => {
      const call = (calls.get(stage) ?? 0) + 1;
      calls.set(stage, call);
      return steps[stage]?.(ctx, call) ?? Promise.resolve(passed);
    },
  };
}

// Lets pending promise callbacks run.
const tick = async (): Promise<void> => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

describe('stageTimeoutMs', () => {
  it('a stage that overruns is failed "timed out", its signal aborted, and the loop goes on without it', async () => {
    const h = harness();
    const entered = deferred();
    const signals: AbortSignal[] = [];
    const runner = createScriptedStageRunner<GoalEvaluation>({
      a: passed,
      b: [hangs(entered.resolve, signals), passed],
      c: passed,
    });
    const running = h.loop(runner, { stageTimeoutMs: { b: 5_000 } }).run();
    await entered.promise;
    h.clock.advance(4_999);
    await tick();
    expect(signals[0]?.aborted).toBe(false);
    h.clock.advance(1);
    await tick();
    expect(signals[0]?.aborted).toBe(true);
    h.clock.advance(STAGE_ABORT_GRACE_MS);
    const result = await running;
    expectStop(result, 'complete', 0);
    const completed = (await readEvents(h.fs)).filter((event) => event.type === 'stage_completed');
    expect(completed.find((event) => event.stage === 'b')).toMatchObject({
      status: 'failed',
      detail: expect.stringContaining('timed out after 5000 ms'),
    });
  });

  it('a stage that returns within the grace after its timeout still has its cost counted', async () => {
    const h = harness();
    const entered = deferred();
    const runner = runnerOf({
      b: (ctx, call) => {
        if (call > 1) return Promise.resolve(passed);
        entered.resolve();
        return new Promise<StageOutcome>((resolve) =>
          ctx.signal.addEventListener('abort', () => resolve({ status: 'passed', costUsd: 2 })),
        );
      },
    });
    const running = h.loop(runner, { stageTimeoutMs: 1_000 }).run();
    await entered.promise;
    h.clock.advance(1_000);
    const result = await running;
    expect(result.spentUsd).toBe(2);
    expect(JSON.parse((await h.fs.readText(PATHS.metrics)) ?? '{}')).toMatchObject({ cumulative_cost_usd: 2 });
  });

  it('names only stages of the pipeline', () => {
    const h = harness();
    expect(() => h.loop(createScriptedStageRunner({}), { stageTimeoutMs: { nope: 10 } })).toThrow(
      /stageTimeoutMs\.nope|stageTimeoutMs names nope/,
    );
  });
});

describe('aborts', () => {
  it('a runner that ignores the abort cannot keep the loop or its lock: run() returns aborted and the run resumes', async () => {
    const h = harness();
    const controller = new AbortController();
    const entered = deferred();
    const runner = createScriptedStageRunner<GoalEvaluation>({
      a: [hangs(entered.resolve), passed],
      b: passed,
      c: passed,
    });
    const running = h.loop(runner, { signal: controller.signal }).run();
    await entered.promise;
    controller.abort(new Error('stop'));
    await tick();
    h.clock.advance(STAGE_ABORT_GRACE_MS);
    expectStop(await running, 'aborted', 130);
    expect(await h.fs.readText(PATHS.lock)).toBeNull();
    expectStop(await h.loop(runner).run(), 'complete', 0);
  });

  it('a stage that completes after the abort still adds its cost to the spend', async () => {
    const h = harness();
    const controller = new AbortController();
    const runner = runnerOf({
      a: async (_ctx, call) => {
        if (call === 1) controller.abort(new Error('stop'));
        return { status: 'passed', costUsd: 2 };
      },
    });
    const aborted = await h.loop(runner, { signal: controller.signal }).run();
    expectStop(aborted, 'aborted', 130);
    expect(aborted.spentUsd).toBe(2);
    const resumed = await h.loop(runner).run();
    expectStop(resumed, 'complete', 0);
    expect(resumed.spentUsd).toBe(4);
  });
});

describe('spend recorded by others', () => {
  it('counts: $50 in metrics.json with a $10 budget stops the run, and the loop never writes a lower figure', async () => {
    const h = harness();
    const runner = createScriptedStageRunner({ a: { status: 'passed', costUsd: 1 }, b: passed, c: passed });
    await h.fs.writeText(PATHS.metrics, JSON.stringify({ cumulative_cost_usd: 50, other: 'kept' }));
    const result = await h.loop(runner, { budgetUsd: 10 }).run();
    expectStop(result, 'budget_exhausted', 7);
    expect(runner.stageIds()).toEqual([]);
    expect(JSON.parse((await h.fs.readText(PATHS.metrics)) ?? '{}')).toEqual({
      cumulative_cost_usd: 50,
      other: 'kept',
    });
  });

  it('adds its own costs on top of what others recorded between sessions', async () => {
    const h = harness();
    const runner = createScriptedStageRunner({ a: { status: 'passed', costUsd: 1 }, b: passed, c: passed });
    expectStop(await h.loop(runner).run(), 'complete', 0);
    await h.fs.writeText(PATHS.metrics, JSON.stringify({ cumulative_cost_usd: 7 }));
    await h.fs.writeText(
      PATHS.state,
      JSON.stringify({ ...(await readState(h.fs)), stage_status: { a: 'pending', b: 'passed', c: 'passed' } }),
    );
    const again = await h.loop(runner).run();
    expect(again.spentUsd).toBe(8);
    expect(JSON.parse((await h.fs.readText(PATHS.metrics)) ?? '{}')).toMatchObject({ cumulative_cost_usd: 8 });
  });
});

describe('loop-state.json read back', () => {
  it('a saved iteration naming a stage outside the pipeline is STATE_CORRUPT naming the field; no stage runs', async () => {
    const h = harness();
    const controller = new AbortController();
    controller.abort();
    const runner = createScriptedStageRunner({ a: passed, b: passed, c: passed });
    await h.loop(runner, { signal: controller.signal }).run();
    const state = await readState(h.fs);
    await h.fs.writeText(
      PATHS.state,
      JSON.stringify({ ...state, phase: 'running_stages', iteration_stages: ['a', 'rm -rf'] }),
    );
    await expect(h.loop(runner).run()).rejects.toMatchObject({
      code: 'STATE_CORRUPT',
      message: expect.stringContaining('iteration_stages[1]'),
    });
    expect(runner.stageIds()).toEqual([]);
  });

  it('a next_seq rewound behind the log is STATE_CORRUPT, not events silently dropped', async () => {
    const h = harness();
    const runner = createScriptedStageRunner({ a: passed, b: passed, c: passed });
    expectStop(await h.loop(runner).run(), 'complete', 0);
    await h.fs.writeText(PATHS.state, JSON.stringify({ ...(await readState(h.fs)), next_seq: 0, outbox: [] }));
    await expect(h.loop(runner).run()).rejects.toMatchObject({
      code: 'STATE_CORRUPT',
      message: expect.stringContaining('next_seq is 0'),
    });
  });
});

describe('what a runner throws', () => {
  it.each([
    ['an object without a text form', () => ({ toString: null })],
    [
      'a revoked proxy',
      () => {
        const { proxy, revoke } = Proxy.revocable({}, {});
        revoke();
        return proxy;
      },
    ],
  ])('%s is a failed stage, never a crash', async (_what, make) => {
    const h = harness();
    let calls = 0;
    const runner: StageRunner = {
      run: async () => {
        calls += 1;
        if (calls === 1) throw make();
        return passed;
      },
    };
    const result = await h.loop(runner).run();
    expectStop(result, 'complete', 0);
    const failedStage = (await readEvents(h.fs)).find(
      (event) => event.type === 'stage_completed' && event.status === 'failed',
    );
    expect(failedStage).toMatchObject({ detail: expect.stringContaining('The stage runner threw') });
  });
});

describe('special files and hand edits the loop reads back', () => {
  it('a FIFO as events.jsonl is an IO_ERROR naming it, never an empty log', async () => {
    const h = harness();
    await h.fs.mkfifo(PATHS.events);
    await expect(h.loop(createScriptedStageRunner({})).evaluate()).rejects.toMatchObject({
      code: 'IO_ERROR',
      message: expect.stringContaining('events.jsonl'),
    });
  });

  it('a loop-state.json field out of range is STATE_CORRUPT naming the field in the message', async () => {
    const h = harness();
    const runner = createScriptedStageRunner({ a: passed, b: passed, c: passed });
    expectStop(await h.loop(runner).run(), 'complete', 0);
    const text = (await h.fs.readText(PATHS.state)) ?? '';
    await h.fs.writeText(PATHS.state, text.replace(/"next_seq": \d+/, '"next_seq": 1e308'));
    await expect(h.loop(runner).run()).rejects.toMatchObject({
      code: 'STATE_CORRUPT',
      message: expect.stringContaining('next_seq'),
    });
  });
});
