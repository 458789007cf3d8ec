import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LoopEvent } from '../../src/goal/contracts/events.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import {
  eventLines,
  goalJson,
  harness,
  metricFile,
  PATHS,
  passed,
  readState,
  runFile,
  typesOf,
  writes,
} from './helpers.js';

// SPEC §12 events: a throwing onEvent never breaks the loop or its files; loop.events() yields the same events.

// A run that retries stage a once (m.json holds the iteration, the goal wants 2).
function twoIterations() {
  const h = harness({ [runFile('goal.json')]: goalJson([metricFile('m', 'out/m.json', '>=', 2, ['a'])]) });
  const runner = createScriptedStageRunner({
    a: writes('out/m.json', (ctx) => ({ value: ctx.iteration })),
    b: passed,
    c: passed,
  });
  return { h, runner };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a throwing onEvent listener', () => {
  it('changes neither the result nor events.jsonl nor loop-state.json; each throw goes to onListenerError', async () => {
    const quiet = twoIterations();
    const expected = await quiet.h.loop(quiet.runner).run();

    const { h, runner } = twoIterations();
    const told: LoopEvent[] = [];
    const reported: { error: unknown; event: LoopEvent }[] = [];
    const loop = h.loop(runner, {
      onEvent: (event) => {
        told.push(event);
        throw new Error(`listener broke on ${event.type}`);
      },
      onListenerError: (error, event) => reported.push({ error, event }),
    });
    const result = await loop.run();

    expect(result).toEqual(expected);
    expect(await eventLines(h.fs)).toEqual(await eventLines(quiet.h.fs));
    expect(await readState(h.fs)).toEqual(await readState(quiet.h.fs));
    expect(told).toEqual(quiet.h.seen);
    expect(reported.map((report) => report.event)).toEqual(told);
    expect(reported[0]?.error).toEqual(new Error('listener broke on loop_iteration_started'));
    expect(await h.fs.readText(PATHS.lock)).toBeNull();
  });

  it('is reported with console.warn by default, one line per throw, and the loop goes on', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { h, runner } = twoIterations();
    const result = await h
      .loop(runner, {
        onEvent: (event) => {
          if (event.type === 'goal_evaluated') throw new Error('dashboard offline');
        },
      })
      .run();
    expect(result.stoppedOn).toBe('complete');
    expect(warn).toHaveBeenCalledTimes(2);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(
      /GoalLoop onEvent listener threw on goal_evaluated .*dashboard offline/,
    );
  });

  it('an onListenerError that throws too is swallowed', async () => {
    const { h, runner } = twoIterations();
    const loop = h.loop(runner, {
      onEvent: () => {
        throw new Error('listener');
      },
      onListenerError: () => {
        throw new Error('reporter');
      },
    });
    expect((await loop.run()).stoppedOn).toBe('complete');
  });

  it('is refused when onListenerError is not a function', () => {
    const { h, runner } = twoIterations();
    expect(() => h.loop(runner, { onListenerError: 'warn' as never })).toThrow(/onListenerError must be a function/);
  });
});

describe('loop.events()', () => {
  it('yields the same events as onEvent, in order, to a consumer slower than the loop, and ends on abort', async () => {
    const { h, runner } = twoIterations();
    const loop = h.loop(runner);
    const ended = new AbortController();
    const received: LoopEvent[] = [];
    const consumed = (async () => {
      for await (const event of loop.events({ signal: ended.signal })) {
        received.push(event);
        // Slower than the loop: several turns of the event loop per event.
        for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    await loop.run();
    ended.abort();
    await consumed;
    expect(received).toEqual(h.seen);
    expect(typesOf(received)).toContain('loop_iteration_retrying_stages');
    expect(received.at(-1)?.type).toBe('loop_completed');
  });

  it('serves several iterators at once and goes on across runs until it ends', async () => {
    const { h, runner } = twoIterations();
    const loop = h.loop(runner);
    const first = loop.events();
    const second = loop.events();
    await loop.step();
    await loop.step();
    const stepOne = h.seen.length;
    const taken: LoopEvent[] = [];
    for (let index = 0; index < h.seen.length; index += 1) {
      const next = await first.next();
      if (!next.done) taken.push(next.value);
    }
    expect(taken).toEqual(h.seen);
    expect(stepOne).toBeGreaterThan(0);
    const secondFirst = await second.next();
    expect(secondFirst.value).toEqual(h.seen[0]);
    await first.return?.();
    await second.return?.();
    expect(await first.next()).toEqual({ value: undefined, done: true });
  });

  it('a break (return()) ends it at once: a pending next() resolves done, later events are not queued', async () => {
    const { h, runner } = twoIterations();
    const loop = h.loop(runner);
    const iterator = loop.events();
    const pending = iterator.next();
    await iterator.return?.();
    expect(await pending).toEqual({ value: undefined, done: true });
    await loop.run();
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
  });

  it('with a signal already aborted, yields nothing', async () => {
    const { h, runner } = twoIterations();
    const loop = h.loop(runner);
    const iterator = loop.events({ signal: AbortSignal.abort() });
    await loop.run();
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
  });

  it('works beside a throwing onEvent: the iterator still gets every event', async () => {
    const { h, runner } = twoIterations();
    const loop = h.loop(runner, {
      onEvent: () => {
        throw new Error('listener');
      },
      onListenerError: () => undefined,
    });
    const ended = new AbortController();
    const received: LoopEvent[] = [];
    const consumed = (async () => {
      for await (const event of loop.events({ signal: ended.signal })) received.push(event);
    })();
    await loop.run();
    ended.abort();
    await consumed;
    expect(received.map((event) => event.seq)).toEqual(
      (await eventLines(h.fs)).map((line) => (JSON.parse(line) as LoopEvent).seq),
    );
  });
});
