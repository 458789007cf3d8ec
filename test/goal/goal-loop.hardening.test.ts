import { describe, expect, it } from 'vitest';
import { GoalLoop } from '../../src/goal/goal-loop.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import { createFakeCommandRunner } from '../../src/testing/fake-command-runner.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import {
  command,
  deferred,
  expectStop,
  goalJson,
  harness,
  metricFile,
  PATHS,
  passed,
  RUN,
  readEvents,
  runFile,
  STAGES,
  START,
  typesOf,
} from './helpers.js';

const allPass = () => createScriptedStageRunner({ a: passed, b: passed, c: passed });
const staleLock = (owner: string) =>
  JSON.stringify({ owner, pid: 1, heartbeat_at: START - 600_001, heartbeat_iso: '', timeout_ms: 600_000 });

// A memory filesystem whose every call waits a macrotask, so two loops interleave at every step.
function slowFileSystem(files: Record<string, string>): FileSystem {
  const fs = createMemoryFileSystem({ files });
  const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
  return new Proxy(fs, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        await tick();
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

describe('the run lock under contention', () => {
  it('two loops taking over the same stale lock: exactly one runs, the other gets RUN_LOCKED', async () => {
    for (let round = 0; round < 5; round++) {
      const fs = slowFileSystem({ [PATHS.lock]: staleLock('ghost') });
      const h = harness();
      const make = () => new GoalLoop({ fs, runDir: RUN, stages: [...STAGES], runner: allPass(), clock: h.clock });
      const outcomes = await Promise.allSettled([make().run(), make().run()]);
      const fulfilled = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      const rejected = outcomes.flatMap((outcome) =>
        outcome.status === 'rejected' ? [outcome.reason as unknown] : [],
      );
      expect(fulfilled).toHaveLength(1);
      expect(rejected).toEqual([expect.objectContaining({ code: 'RUN_LOCKED' })]);
    }
  });

  it('a loop whose lock went stale during a long evaluation and was taken over stops with RUN_LOCKED', async () => {
    const h = harness({ [runFile('goal.json')]: goalJson([command('slow', 'slow-check')]) });
    const started = deferred();
    const finish = deferred();
    const commands = createFakeCommandRunner({
      'slow-check': async () => {
        started.resolve();
        await finish.promise;
        return { exitCode: 0 };
      },
    });
    const first = h.loop(allPass(), { commands, lockTimeoutMs: 1_000 }).run();
    await started.promise;
    // The first loop's heartbeat is due every 333 ms; a thief takes the lock over while the clock jumps past the timeout.
    await h.fs.writeText(
      PATHS.lock,
      JSON.stringify({ owner: 'thief', pid: 2, heartbeat_at: START + 5_000, heartbeat_iso: '', timeout_ms: 60_000 }),
    );
    h.clock.advance(5_000);
    finish.resolve();
    await expect(first).rejects.toMatchObject({ code: 'RUN_LOCKED' });
    expect(typesOf(await readEvents(h.fs))).not.toContain('loop_completed');
  });
});

describe('events.jsonl shared with another writer', () => {
  it('a foreign line without seq neither duplicates events nor replays the old stop', async () => {
    const h = harness();
    expectStop(await h.loop(allPass()).run(), 'complete', 0);
    await h.fs.appendText(PATHS.events, `${JSON.stringify({ ts: 'x', type: 'note', by: 'another tool' })}\n`);
    const second = await h.loop(allPass()).run();
    expect(second).toMatchObject({ stoppedOn: 'complete', iteration: 2 });
    const lines = ((await h.fs.readText(PATHS.events)) ?? '')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { seq?: number; type: string });
    const seqs = lines.flatMap((event) => (event.seq === undefined ? [] : [event.seq]));
    expect(seqs).toEqual(seqs.map((_, index) => index));
    expect(lines.filter((event) => event.type === 'loop_completed')).toHaveLength(2);
  });
});

describe('paths and spend', () => {
  it('a metric { file } must stay inside the run directory', async () => {
    const h = harness({
      [runFile('goal.json')]: goalJson([
        metricFile('own', 'metrics/own.json', '>=', 1),
        // Absolute, so only the evaluation can tell it lies outside the run dir (the memory root is /project).
        metricFile('other', '/project/.goal-loop/runs/r-0/metrics/own.json', '>=', 1),
      ]),
      [runFile('metrics/own.json')]: JSON.stringify({ value: 5 }),
      '.goal-loop/runs/r-0/metrics/own.json': JSON.stringify({ value: 5 }),
    });
    const evaluation = await h.loop(allPass()).evaluate();
    expect(evaluation.criteria.find((criterion) => criterion.id === 'own')?.status).toBe('PASS');
    const other = evaluation.criteria.find((criterion) => criterion.id === 'other');
    expect(other?.status).toBe('FAIL');
    expect(other?.detail).toContain('outside the run directory');
    expect(other?.refusedPath).toBe('$.criteria[1].source.file');
    // A refused path is a FAIL like any other (SPEC §5.2: RETRY); the no-progress stop ends a loop nothing changes.
    expect(evaluation.status).toBe('RETRY');
  });

  it('a metric { file } climbing out of the run directory with .. FAILs at evaluation, naming its JSON path', async () => {
    const h = harness({
      [runFile('goal.json')]: goalJson([metricFile('other', '../r-0/metrics/own.json', '>=', 1)]),
      '.goal-loop/runs/r-0/metrics/own.json': JSON.stringify({ value: 5 }),
    });
    const evaluation = await h.loop(allPass()).evaluate();
    expect(evaluation.status).toBe('RETRY');
    expect(evaluation.issues).toEqual([]);
    expect(evaluation.criteria[0]).toMatchObject({ status: 'FAIL', refusedPath: '$.criteria[0].source.file' });
  });

  it('a cumulative_cost_usd that is not a number stops the loop with INVALID_CONTRACT and is not overwritten', async () => {
    const metrics = JSON.stringify({ cumulative_cost_usd: 'twelve', tokens: 7 });
    const h = harness({ [PATHS.metrics]: metrics });
    await expect(h.loop(allPass(), { budgetUsd: 5 }).run()).rejects.toMatchObject({
      code: 'INVALID_CONTRACT',
      message: expect.stringContaining('cumulative_cost_usd'),
    });
    expect(await h.fs.readText(PATHS.metrics)).toBe(metrics);
    expect(await h.fs.readText(PATHS.lock)).toBeNull();
  });

  it('a numeric-string spend counts against the budget', async () => {
    const h = harness({ [PATHS.metrics]: JSON.stringify({ cumulative_cost_usd: '12.0' }) });
    const runner = allPass();
    expectStop(await h.loop(runner, { budgetUsd: 5 }).run(), 'budget_exhausted', 7);
    expect(runner.calls).toEqual([]);
  });
});

describe('command concurrency', () => {
  it("defaults to the command runner's suggested concurrency", async () => {
    let running = 0;
    let peak = 0;
    const gate = deferred();
    const slow = async () => {
      running += 1;
      peak = Math.max(peak, running);
      await gate.promise;
      running -= 1;
      return { exitCode: 0 };
    };
    const fake = createFakeCommandRunner([{ match: /^c\d$/, respond: slow }]);
    const commands = Object.assign(fake, { concurrency: 2 });
    const h = harness({
      [runFile('goal.json')]: goalJson(['c1', 'c2', 'c3', 'c4', 'c5'].map((id) => command(id, id))),
    });
    const pending = h.loop(allPass(), { commands }).evaluate();
    await new Promise((resolve) => setTimeout(resolve, 20));
    gate.resolve();
    await pending;
    expect(peak).toBe(2);
  });
});

describe('stage context on resume', () => {
  it('a resumed retry iteration tells the stage which retry it belongs to', async () => {
    const h = harness();
    const controller = new AbortController();
    const reasons: unknown[] = [];
    let bRuns = 0;
    const runner = createScriptedStageRunner({
      a: passed,
      b: async (context) => {
        reasons.push(context.reason);
        bRuns += 1;
        if (bRuns === 1) return { status: 'failed', detail: 'first try' };
        if (bRuns === 2) {
          controller.abort();
          return passed;
        }
        return passed;
      },
      c: passed,
    });
    expectStop(await h.loop(runner, { signal: controller.signal }).run(), 'aborted', 130);
    expectStop(await h.loop(runner).run(), 'complete', 0);
    expect(reasons).toEqual([
      { kind: 'initial' },
      { kind: 'retry', reason: expect.stringContaining('Stage b failed'), criteria: [] },
      { kind: 'resume', retry: { reason: expect.stringContaining('Stage b failed'), criteria: [] } },
    ]);
  });
});

describe('explicit verdicts naming stages outside the pipeline', () => {
  it('are rejected by the evaluation, which says why in its claims', async () => {
    const h = harness({
      [runFile('goal.json')]: goalJson([{ id: 'design', kind: 'judge', question: 'ok?', rerun_stages: ['b'] }]),
      [runFile('goal-verdict.json')]: JSON.stringify({
        criterion_id: 'design',
        verdict: 'FAIL',
        recommended_rerun_stages: ['zz-unknown'],
      }),
    });
    const evaluation = await h.loop(allPass()).evaluate();
    expect(evaluation.criteria[0]?.status).toBe('PENDING');
    expect(evaluation.claims.rejected).toEqual([
      expect.objectContaining({ source: 'explicit', reason: expect.stringContaining('zz-unknown') }),
    ]);
  });
});
