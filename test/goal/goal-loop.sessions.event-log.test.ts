import { describe, expect, it } from 'vitest';
import { readLatestIterationStarted } from '../../src/goal/loop-events.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import {
  allPass,
  eventLines,
  expectStop,
  failed,
  harness,
  JUDGE_GOAL,
  PATHS,
  passed,
  readEvents,
  runFile,
  typesOf,
} from './helpers.js';

describe('events.jsonl', () => {
  it('every line parses with loopEventSchema, goal_id is never empty, seq strictly increases, onEvent sees exactly the log', async () => {
    const h = harness({
      ...JUDGE_GOAL,
      [runFile('goal-verdict.json')]: JSON.stringify({ verdict: 'PASS', iteration: 1 }),
    });
    expectStop(
      await h.loop(createScriptedStageRunner({ a: passed, b: [failed, passed], c: passed })).run(),
      'ask_user',
      4,
    );
    await h.fs.writeText(runFile('goal-verdict.json'), JSON.stringify({ verdict: 'PASS', iteration: 3 }));
    expectStop(await h.loop(allPass()).run(), 'complete', 0);
    const lines = await eventLines(h.fs);
    const events = await readEvents(h.fs);
    expect(events).toHaveLength(lines.length);
    expect(events.every((event) => typeof event.goal_id === 'string' && event.goal_id !== '')).toBe(true);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index));
    expect(h.seen).toEqual(events);
    expect(typesOf(events)).toContain('loop_iteration_retrying_stages');
  });

  it('removes a torn last line before the next append: every line of the log parses, and readers skip a fragment meanwhile', async () => {
    const h = harness();
    await h.loop(allPass()).run();
    const torn = '{"ts":"2025-01-01T00:00:00.000Z","type":"loop_iteration_started","iteration":9';
    await h.fs.appendText(PATHS.events, torn);
    expect(await readLatestIterationStarted(h.fs, PATHS.events)).toBe(1);
    expectStop(await h.loop(allPass()).run(), 'complete', 0);
    const lines = await eventLines(h.fs);
    expect(lines).not.toContain(torn);
    expect(lines.map((line) => JSON.parse(line) as unknown)).toHaveLength(lines.length);
    expect(await readLatestIterationStarted(h.fs, PATHS.events)).toBe(2);
    const events = await readEvents(h.fs);
    expect(events).toHaveLength(lines.length);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, i) => i));
  });

  it('readLatestIterationStarted: null without a log, skips torn and foreign lines', async () => {
    const h = harness();
    expect(await readLatestIterationStarted(h.fs, PATHS.events)).toBeNull();
    const line = (iteration: number) => JSON.stringify({ type: 'loop_iteration_started', iteration });
    await h.fs.writeText(
      PATHS.events,
      `${line(3)}\nnot json\n${JSON.stringify({ type: 'goal_evaluated', iteration: 7 })}\n{"type":"loop_iteration_started","iter`,
    );
    expect(await readLatestIterationStarted(h.fs, PATHS.events)).toBe(3);
  });
});
