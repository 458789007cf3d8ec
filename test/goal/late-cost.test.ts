import { describe, expect, it } from 'vitest';
import { readLoopStatus } from '../../src/goal/loop-status.js';
import { STAGE_ABORT_GRACE_MS } from '../../src/goal/stage-call.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import { failing } from '../runtime/helpers.js';
import { deferred, expectStop, harness, PATHS, passed, RUN, readEvents, readState, START, typesOf } from './helpers.js';
import { abortedWithLateCost, LATE_FOLDER, lateFiles, lateRunner, tick, until } from './late-cost-helpers.js';

// A stage that reports its cost after the loop stopped waiting for it (an abort, a time limit): the cost is written
// to <runDir>/spend-pending/ and added to the spend, exactly once, by the loop that next holds the lock.

const metricsSpend = async (h: { fs: Parameters<typeof readEvents>[0] }): Promise<unknown> =>
  JSON.parse((await h.fs.readText(PATHS.metrics)) ?? '{}').cumulative_cost_usd;

describe('a cost reported after an abort', () => {
  it('a $2 stage that returns 3 s after the abort: after resume the spend is 4 of a real 4, once, with the event', async () => {
    const { h, runner } = await abortedWithLateCost();
    const [name] = await lateFiles(h.fs);
    expect(JSON.parse((await h.fs.readText(`${LATE_FOLDER}/${name}`)) ?? '{}')).toEqual({
      stage: 'a',
      iteration: 1,
      cost_usd: 2,
      settled_at: new Date(START + 3_000).toISOString(),
    });
    expect(await readLoopStatus({ fs: h.fs, runDir: RUN })).toMatchObject({ spentUsd: 0, pendingLateCostUsd: 2 });

    const resumed = await h.loop(runner).run();
    expectStop(resumed, 'complete', 0);
    expect(runner.calls() * 2).toBe(4);
    expect(resumed.spentUsd).toBe(4);
    expect(await metricsSpend(h)).toBe(4);
    const late = (await readEvents(h.fs)).filter((event) => event.type === 'late_cost_recorded');
    expect(late).toEqual([
      expect.objectContaining({ stage: 'a', stage_iteration: 1, cost_usd: 2, path: `${LATE_FOLDER}/${name}` }),
    ]);
    expect(await lateFiles(h.fs)).toEqual([]);
    expect((await readState(h.fs))?.late_costs).toBeUndefined();
    expect(await readLoopStatus({ fs: h.fs, runDir: RUN })).toMatchObject({ spentUsd: 4, pendingLateCostUsd: 0 });

    // A later session counts nothing again.
    const again = await h.loop(runner).run();
    expect(again.spentUsd).toBe(4);
    expect((await readEvents(h.fs)).filter((event) => event.type === 'late_cost_recorded')).toHaveLength(1);
  });

  it('the event comes before the resumed stages, so a budget of 3 stops before stage a runs again', async () => {
    const { h, runner } = await abortedWithLateCost();
    await h.fs.writeText(PATHS.metrics, JSON.stringify({ cumulative_cost_usd: 1.5 }));
    const resumed = await h.loop(runner, { budgetUsd: 3 }).run();
    expectStop(resumed, 'budget_exhausted', 7);
    // Spend others recorded in metrics.json counts, and the late cost adds to it.
    expect(resumed.spentUsd).toBe(3.5);
    expect(runner.calls()).toBe(1);
  });

  it('a dry run and readLoopStatus write nothing: the pending file stays for the next session', async () => {
    const { h } = await abortedWithLateCost();
    const before = await h.fs.readText(PATHS.state);
    const writes: string[] = [];
    const watched = failing(h.fs, (method, args) => {
      if (!['readText', 'readBytes', 'stat', 'realpath', 'list'].includes(method)) writes.push(`${method} ${args[0]}`);
      return false;
    });
    await readLoopStatus({ fs: watched, runDir: RUN });
    const loop = h.loop(createScriptedStageRunner({}), { fs: watched });
    await loop.evaluate();
    expect(writes).toEqual([]);
    expect(await h.fs.readText(PATHS.state)).toBe(before);
    expect(await lateFiles(h.fs)).toHaveLength(1);
  });
});

describe('a cost reported after a stage timed out (the loop goes on)', () => {
  it('is folded in before the next budget check: a budget of 3 stops after b ($2 late + $1.5)', async () => {
    const h = harness();
    const inB = deferred();
    const releaseB = deferred();
    const runner = lateRunner({
      b: async () => {
        inB.resolve();
        await releaseB.promise;
        return { status: 'passed', costUsd: 1.5 };
      },
    });
    const running = h.loop(runner, { stageTimeoutMs: { a: 1_000 }, budgetUsd: 3 }).run();
    await runner.entered;
    h.clock.advance(1_000);
    await tick();
    h.clock.advance(STAGE_ABORT_GRACE_MS);
    await inB.promise;
    const timedOut = (await readEvents(h.fs)).find((event) => event.type === 'stage_completed' && event.stage === 'a');
    expect(timedOut).toMatchObject({ status: 'failed', cost_usd: 0, detail: expect.stringContaining('timed out') });

    runner.report();
    await until(async () => (await lateFiles(h.fs)).length === 1, 'the pending late cost file');
    releaseB.resolve();
    const result = await running;
    expectStop(result, 'budget_exhausted', 7);
    expect(result.spentUsd).toBe(3.5);
    expect(await metricsSpend(h)).toBe(3.5);
    const events = await readEvents(h.fs);
    const types = typesOf(events);
    expect(types.indexOf('late_cost_recorded')).toBeGreaterThan(-1);
    expect(types.filter((type) => type === 'late_cost_recorded')).toHaveLength(1);
    const lastB = events.map((event) => event.type === 'stage_completed' && event.stage === 'b').lastIndexOf(true);
    expect(types.indexOf('late_cost_recorded')).toBeLessThan(lastB);
    expect(events.some((event) => event.type === 'stage_started' && event.stage === 'c')).toBe(false);
    expect(await lateFiles(h.fs)).toEqual([]);
  });

  it('a runner that returns within the grace has its cost in the stage, and no pending file', async () => {
    const h = harness();
    const runner = lateRunner();
    const running = h.loop(runner, { stageTimeoutMs: { a: 1_000 } }).run();
    await runner.entered;
    h.clock.advance(1_000);
    await tick();
    runner.report();
    const result = await running;
    expectStop(result, 'complete', 0);
    // The timed-out call's $2 in its stage record, the rerun's $2 in its own.
    expect(result.spentUsd).toBe(4);
    expect(typesOf(await readEvents(h.fs))).not.toContain('late_cost_recorded');
    expect(await h.fs.list(LATE_FOLDER)).toBeNull();
  });
});

describe('damaged pending files', () => {
  it('are reported once with their path and kept; the loop goes on and counts the readable ones', async () => {
    const h = harness();
    await h.fs.writeText(`${LATE_FOLDER}/1-a-torn.json`, '{"stage": "a", "iter');
    await h.fs.writeText(
      `${LATE_FOLDER}/1-a-negative.json`,
      JSON.stringify({ stage: 'a', iteration: 1, cost_usd: -1, settled_at: 'x' }),
    );
    await h.fs.mkfifo(`${LATE_FOLDER}/1-a-fifo.json`);
    await h.fs.writeText(
      `${LATE_FOLDER}/1-b-ok.json`,
      JSON.stringify({ stage: 'b', iteration: 1, cost_usd: 0.5, settled_at: 'x' }),
    );
    const runner = createScriptedStageRunner({ a: passed, b: passed, c: passed });
    const result = await h.loop(runner).run();
    expectStop(result, 'complete', 0);
    expect(result.spentUsd).toBe(0.5);
    const reported = (await readEvents(h.fs)).filter((event) => event.type === 'late_cost_unreadable');
    expect(reported.map((event) => event.path)).toEqual([
      `${LATE_FOLDER}/1-a-fifo.json`,
      `${LATE_FOLDER}/1-a-negative.json`,
      `${LATE_FOLDER}/1-a-torn.json`,
    ]);
    expect(reported[1]).toMatchObject({ reason: expect.stringContaining('cost_usd') });
    expect(reported[2]).toMatchObject({ reason: expect.stringContaining('Not valid JSON') });
    expect(await lateFiles(h.fs)).toEqual(['1-a-fifo.json', '1-a-negative.json', '1-a-torn.json']);
    expect(await readLoopStatus({ fs: h.fs, runDir: RUN })).toMatchObject({ pendingLateCostUsd: 0 });

    // A second session does not report them again; a file fixed by hand is then counted.
    await h.fs.writeText(
      `${LATE_FOLDER}/1-a-torn.json`,
      JSON.stringify({ stage: 'a', iteration: 1, cost_usd: 1, settled_at: 'x' }),
    );
    const again = await h.loop(runner).run();
    expect(again.spentUsd).toBe(1.5);
    const events = await readEvents(h.fs);
    expect(events.filter((event) => event.type === 'late_cost_unreadable')).toHaveLength(3);
    expect(events.filter((event) => event.type === 'late_cost_recorded').map((event) => event.cost_usd)).toEqual([
      0.5, 1,
    ]);
    expect((await readState(h.fs))?.late_costs).toEqual({
      folded: [],
      unreadable: ['1-a-fifo.json', '1-a-negative.json'],
    });
  });
});
