import { describe, expect, it } from 'vitest';
import { createGoalLoopTools, GoalLoop } from '../../../src/index.js';
import { createMemoryFileSystem, createScriptedStageRunner } from '../../../src/testing.js';
import { failed, ok } from '../../ports/tools.js';
import { GOAL, PATHS, project, RUN, STAGES } from './project.js';

describe('loop_status', () => {
  it('says not_started before any loop, then the stop, iteration and last decision of the run', async () => {
    const p = project();
    expect(ok(await p.status.handler({ run_dir: RUN }))).toMatchObject({
      state: 'not_started',
      iteration: 0,
      session: null,
      last_decision: null,
    });
    await p.fs.writeText(`${RUN}/report.json`, '{}');
    await p.loop().run();
    const output = ok(await p.status.handler({ run_dir: RUN }));
    expect(output).toMatchObject({
      state: 'stopped',
      goal_id: 'tools-goal',
      iteration: 1,
      phase: 'stopped',
      session: { index: 1, started_at_iteration: 0, iterations: 1 },
      stop: { stopped_on: 'ask_user', iteration: 1 },
      paused: null,
      current_stage: null,
      stage_status: { a: 'passed', b: 'passed' },
      awaiting_verdicts: { criterion_ids: ['design'], iteration: 2 },
      last_decision: { iteration: 1, status: 'ASK_USER', failing_criteria: ['design'] },
    });
  });

  it('reports the run lock and whether its holder is gone, so a host can say "crashed, run again to resume"', async () => {
    const fs = createMemoryFileSystem({ files: { [PATHS.goal]: GOAL } });
    const crashedHere = { ...fs, processes: { host: 'build-7', isGone: (pid: number) => pid === 4164 } };
    const [, , status] = createGoalLoopTools({ fs: crashedHere });
    expect(ok(await status.handler({ run_dir: RUN })).lock).toBeNull();
    const held = {
      owner: 'goal-loop:4164:x',
      token: 't',
      pid: 4164,
      host: 'build-7',
      heartbeat_at: Date.now(),
      timeout_ms: 600_000,
    };
    await fs.writeText(PATHS.lock, JSON.stringify(held));
    expect(ok(await status.handler({ run_dir: RUN })).lock).toEqual({
      owner: 'goal-loop:4164:x',
      pid: 4164,
      host: 'build-7',
      heartbeat_age_ms: expect.any(Number),
      timeout_ms: 600_000,
      holder: 'gone',
    });
    await fs.writeText(PATHS.lock, JSON.stringify({ ...held, pid: 77 }));
    expect(ok(await status.handler({ run_dir: RUN })).lock?.holder).toBe('alive');
  });

  it('reports the spend of record and an invalid metrics.json as issues, as readLoopStatus does', async () => {
    const p = project();
    await p.loop().run();
    expect(ok(await p.status.handler({ run_dir: RUN }))).toMatchObject({ spent_usd: 0, issues: [] });
    await p.fs.writeText(PATHS.metrics, JSON.stringify({ cumulative_cost_usd: 4 }));
    expect(ok(await p.status.handler({ run_dir: RUN }))).toMatchObject({ spent_usd: 4, issues: [] });
    await p.fs.writeText(PATHS.metrics, JSON.stringify({ cumulative_cost_usd: 'abc' }));
    expect(ok(await p.status.handler({ run_dir: RUN }))).toMatchObject({
      spent_usd: 0,
      issues: [{ path: ['cumulative_cost_usd'], message: expect.stringContaining('metrics.json: ') }],
    });
  });

  it('reports a stage cost still waiting in spend-pending/ apart from the spend, until a run adds it', async () => {
    const p = project();
    await p.loop().run();
    expect(ok(await p.status.handler({ run_dir: RUN }))).toMatchObject({ pending_late_cost_usd: 0 });
    const record = { stage: 'a', iteration: 1, cost_usd: 2.5, settled_at: '2030-01-01T00:00:00.000Z' };
    await p.fs.writeText(`${RUN}/spend-pending/1-a-late.json`, JSON.stringify(record));
    expect(ok(await p.status.handler({ run_dir: RUN }))).toMatchObject({ spent_usd: 0, pending_late_cost_usd: 2.5 });
    await p.loop().run();
    expect(ok(await p.status.handler({ run_dir: RUN }))).toMatchObject({ spent_usd: 2.5, pending_late_cost_usd: 0 });
  });

  it('reports a session paused by an abort as paused, with the stop that paused it', async () => {
    const p = project();
    const controller = new AbortController();
    const runner = createScriptedStageRunner({
      a: async () => {
        controller.abort();
        return { status: 'passed' };
      },
      b: { status: 'passed' },
    });
    const loop = new GoalLoop({ fs: p.fs, runDir: RUN, stages: STAGES, runner, signal: controller.signal });
    expect(await loop.run()).toMatchObject({ stoppedOn: 'aborted' });
    expect(ok(await p.status.handler({ run_dir: RUN }))).toMatchObject({
      state: 'paused',
      paused: { stopped_on: 'aborted' },
      stop: null,
    });
  });

  it('names an iteration evaluation file that is not an evaluation, as an invalid_contract tool error', async () => {
    const p = project();
    await p.fs.writeText(`${RUN}/report.json`, '{}');
    await p.loop().run();
    await p.fs.writeText(`${RUN}/iterations/1/evaluation.json`, JSON.stringify({ status: 'PASS' }));
    const error = failed(await p.status.handler({ run_dir: RUN }));
    expect(error.code).toBe('invalid_contract');
    expect(error.message).toContain(`${RUN}/iterations`);
  });

  it('turns a corrupt loop-state.json into an invalid_contract tool error', async () => {
    const p = project();
    await p.fs.writeText(PATHS.state, JSON.stringify({ schema_version: 99 }));
    expect(failed(await p.status.handler({ run_dir: RUN })).code).toBe('invalid_contract');
    expect(failed(await p.status.handler({})).message).toContain('$.run_dir');
  });
});
