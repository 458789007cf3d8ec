import { describe, expect, it } from 'vitest';
import { GoalLoop } from '../../src/index.js';
import { runPaths } from '../../src/pipeline/run-paths.js';
import { createManualClock, createMemoryFileSystem, createScriptedStageRunner } from '../../src/testing.js';

// The iteration context of a dry run (evaluate()): the latest loop_iteration_started in events.jsonl, else the
// persisted state's iteration when above 0, else none. Seen from outside through evaluation.iteration and through
// verdict freshness (inside a loop at iteration n a verdict stamped below n is stale for a judge without rerun_stages,
// an unstamped one too; outside a loop an unstamped explicit verdict counts).

const RUN = '.goal-loop/runs/r-dry';
const PATHS = runPaths(RUN);
const passed = { status: 'passed' } as const;
const GOAL = JSON.stringify({
  schema_version: 1,
  goal_id: 'dry',
  criteria: [{ id: 'design', kind: 'judge', question: 'Is the design good?' }],
});

function project() {
  const fs = createMemoryFileSystem({ files: { [PATHS.goal]: GOAL } });
  const clock = createManualClock(Date.UTC(2025, 0, 1));
  const runner = createScriptedStageRunner({ a: passed, b: passed, c: passed });
  const loop = (signal?: AbortSignal) =>
    new GoalLoop({ fs, runDir: RUN, stages: ['a', 'b', 'c'], runner, clock, signal });
  // The judge's status in a dry run with this goal-verdict.json (verdict PASS, stamped or not).
  const judgeWith = async (stamp: number | null) => {
    await fs.writeText(
      PATHS.verdicts,
      JSON.stringify(stamp === null ? { verdict: 'PASS' } : { verdict: 'PASS', iteration: stamp }),
    );
    const evaluation = await loop().evaluate();
    return { iteration: evaluation.iteration, judge: evaluation.criteria[0]?.status };
  };
  return { fs, loop, judgeWith };
}

describe('evaluate(): the iteration context', () => {
  it('with events.jsonl gone, falls back to the iteration of loop-state.json', async () => {
    const p = project();
    // Two sessions stop ask_user (no verdict yet): the run is at iteration 2.
    expect(await p.loop().run()).toMatchObject({ stoppedOn: 'ask_user', iteration: 1 });
    expect(await p.loop().run()).toMatchObject({ stoppedOn: 'ask_user', iteration: 2 });
    await p.fs.remove(PATHS.events);
    expect(await p.fs.readText(PATHS.events)).toBeNull();

    expect(await p.judgeWith(1)).toEqual({ iteration: 2, judge: 'PENDING' });
    expect(await p.judgeWith(2)).toEqual({ iteration: 2, judge: 'PASS' });
    expect(await p.judgeWith(null)).toEqual({ iteration: 2, judge: 'PENDING' });
  });

  it('prefers the latest loop_iteration_started over the state, even when the state is behind', async () => {
    const p = project();
    await p.loop().run();
    await p.loop().run();
    const state = await p.fs.readText(PATHS.state);
    await p.loop().run();
    await p.loop().run();
    // The log says iteration 4; the state is put back to the record of iteration 2.
    await p.fs.writeText(PATHS.state, state ?? '');

    expect(await p.judgeWith(3)).toEqual({ iteration: 4, judge: 'PENDING' });
    expect(await p.judgeWith(4)).toEqual({ iteration: 4, judge: 'PASS' });
  });

  it('has no iteration context when the state is at iteration 0 and no iteration ever started', async () => {
    const p = project();
    const controller = new AbortController();
    controller.abort();
    // Aborted before its first iteration: loop-state.json exists, at iteration 0; events.jsonl has no iteration start.
    expect(await p.loop(controller.signal).run()).toMatchObject({ stoppedOn: 'aborted', iteration: 0 });
    expect(JSON.parse((await p.fs.readText(PATHS.state)) ?? 'null')).toMatchObject({ iteration: 0 });
    expect(await p.fs.readText(PATHS.events)).not.toContain('loop_iteration_started');

    expect(await p.judgeWith(null)).toEqual({ iteration: null, judge: 'PASS' });
  });

  it('has no iteration context on a fresh run dir (no state, no events)', async () => {
    const p = project();
    expect(await p.judgeWith(null)).toEqual({ iteration: null, judge: 'PASS' });
    expect(await p.fs.readText(PATHS.state)).toBeNull();
  });
});
