import { describe, expect, it } from 'vitest';
import type { GoalEvaluation } from '../../src/goal/core/evaluate.js';
import { STAGE_ABORT_GRACE_MS } from '../../src/goal/stage-call.js';
import type { StageContext, StageRunner } from '../../src/goal/stage-runner.js';
import type { StageOutcome } from '../../src/ports/stage-runner.js';
import { createScriptedStageRunner, type ScriptedStep } from '../../src/testing/scripted-stage-runner.js';
import { deferred, expectStop, harness, PATHS, passed, readEvents } from './helpers.js';

// Stages that never settle, stages that overrun, costs reported late, runners that throw what has no text form.

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
