import { describe, expect, it } from 'vitest';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import { expectStop, harness, PATHS, passed, readState } from './helpers.js';

// What the loop reads back from its run's files: spend recorded by others, loop-state.json edited or corrupt, and
// special files.

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
