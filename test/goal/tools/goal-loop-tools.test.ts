import { describe, expect, it, vi } from 'vitest';
import {
  createGoalLoopTools,
  GoalLoop,
  type GoalLoopToolsOptions,
  runPaths,
  type ToolResult,
} from '../../../src/index.js';
import { createMemoryFileSystem, createScriptedStageRunner } from '../../../src/testing.js';

// The goal loop's tools over a memory project: a dry-run evaluation, verdicts through the verdict writer, the
// persisted status — and every bad call a tool error naming the input's JSON path, never a rejection.

const RUN = '.goal-loop/runs/r-7';
const PATHS = runPaths(RUN);
const STAGES = ['a', 'b'];
const GOAL = JSON.stringify({
  schema_version: 1,
  goal_id: 'tools-goal',
  criteria: [
    { id: 'design', kind: 'judge', question: 'Is the design sound?', rerun_stages: ['b'] },
    { id: 'report', kind: 'file_exists', path: 'report.json', run_relative: true, rerun_stages: ['a'] },
  ],
});

function project(options: Partial<GoalLoopToolsOptions> = {}) {
  const fs = createMemoryFileSystem({ files: { [PATHS.goal]: GOAL } });
  const [evaluate, submit, status] = createGoalLoopTools({ fs, ...options });
  const loop = () =>
    new GoalLoop({
      fs,
      runDir: RUN,
      stages: STAGES,
      runner: createScriptedStageRunner({ a: { status: 'passed' }, b: { status: 'passed' } }),
    });
  return { fs, evaluate, submit, status, loop };
}

// The output of a result that must have succeeded.
function ok<T>(result: ToolResult<T>): T {
  if (result.isError) throw new Error(`unexpected tool error: ${result.error.message}`);
  return result.output;
}

// The error of a result that must have failed.
function failed<T>(result: ToolResult<T>) {
  if (!result.isError) throw new Error(`expected a tool error, got ${JSON.stringify(result.output)}`);
  return result.error;
}

describe('createGoalLoopTools', () => {
  it('returns evaluate_goal, submit_verdict and loop_status with object JSON Schemas naming their fields', () => {
    const tools = createGoalLoopTools({ fs: createMemoryFileSystem() });
    expect(tools.map((tool) => tool.name)).toEqual(['evaluate_goal', 'submit_verdict', 'loop_status']);
    const [evaluate, submit, status] = tools;
    expect(evaluate.inputJsonSchema).toMatchObject({
      type: 'object',
      required: ['run_dir'],
      additionalProperties: false,
    });
    expect(Object.keys(evaluate.inputJsonSchema.properties as object)).toEqual(['run_dir', 'stages', 'skip_commands']);
    expect(submit.inputJsonSchema).toMatchObject({ required: ['run_dir', 'criterion_id', 'verdict', 'source'] });
    expect(status.inputJsonSchema).toMatchObject({ required: ['run_dir'] });
    for (const tool of tools) {
      expect(tool.outputJsonSchema.type).toBe('object');
      expect(tool.description.length).toBeGreaterThan(40);
    }
  });
});

describe('evaluate_goal', () => {
  it('evaluates without a loop: the judge PENDING, the missing file FAIL, ASK_USER first by precedence', async () => {
    const p = project();
    const output = ok(await p.evaluate.handler({ run_dir: RUN, stages: STAGES, skip_commands: true }));
    expect(output).toMatchObject({ run_dir: RUN, goal_id: 'tools-goal', status: 'ASK_USER', iteration: null });
    expect(output.failing_criteria.map((check) => [check.id, check.kind, check.status])).toEqual([
      ['design', 'judge', 'PENDING'],
      ['report', 'file_exists', 'FAIL'],
      ['stage:a', 'builtin', 'PENDING'],
      ['stage:b', 'builtin', 'PENDING'],
    ]);
    expect(output.counts).toEqual({ checks: 4, passed: 0, failed: 1, pending: 3 });
    expect(await p.fs.readText(PATHS.state)).toBeNull();
    expect(await p.fs.readText(PATHS.events)).toBeNull();
  });

  it("takes the stages from the host's option, else from the run's loop-state.json, else asks for them", async () => {
    const p = project();
    expect(failed(await p.evaluate.handler({ run_dir: RUN }))).toMatchObject({
      code: 'invalid_input',
      issues: [{ path: ['stages'] }],
    });
    expect(ok(await project({ stages: STAGES }).evaluate.handler({ run_dir: RUN })).status).toBe('ASK_USER');
    await p.fs.writeText(`${RUN}/report.json`, '{}');
    expect(await p.loop().run()).toMatchObject({ stoppedOn: 'ask_user', iteration: 1 });
    const output = ok(await p.evaluate.handler({ run_dir: RUN }));
    expect(output).toMatchObject({ status: 'ASK_USER', iteration: 1, score: 75 });
    expect(output.failing_criteria.map((check) => check.id)).toEqual(['design']);
  });

  it("uses the host's feedbackStage on a run whose stages have it, and none on a run whose stages do not", async () => {
    const p = project({ feedbackStage: 'b' });
    const withIt = ok(await p.evaluate.handler({ run_dir: RUN, stages: STAGES, skip_commands: true }));
    expect(withIt.status).toBe('ASK_USER');
    // A run of the default goal whose pipeline lacks the stage: evaluated, not refused.
    const other = '.goal-loop/runs/r-8';
    const without = ok(await p.evaluate.handler({ run_dir: other, stages: ['a'], skip_commands: true }));
    expect(without).toMatchObject({ status: 'RETRY', recommended_rerun_stages: ['a'], issues: [] });
  });

  it('reports an unusable goal as status ERROR with its issues, not as a tool error', async () => {
    const p = project();
    await p.fs.writeText(PATHS.goal, JSON.stringify({ schema_version: 1, criteria: [{ id: 'x', kind: 'nope' }] }));
    const output = ok(await p.evaluate.handler({ run_dir: RUN, stages: STAGES }));
    expect(output.status).toBe('ERROR');
    expect(output.issues.some((issue) => issue.path.join('.').startsWith('criteria.0'))).toBe(true);
  });

  it('refuses bad input with the JSON path: a run dir outside the root, a wrong type, an unknown field', async () => {
    const p = project();
    for (const [raw, path] of [
      [{ run_dir: '../elsewhere', stages: STAGES }, '$.run_dir'],
      [{ run_dir: '/abs', stages: STAGES }, '$.run_dir'],
      [{ run_dir: RUN, stages: ['a', 'a'] }, '$.stages'],
      [{ run_dir: RUN, stages: STAGES, skip_commands: 'yes' }, '$.skip_commands'],
      [{ run_dir: RUN, stage: ['a'] }, 'stage'],
    ] as const) {
      const error = failed(await p.evaluate.handler(raw));
      expect(error.code).toBe('invalid_input');
      expect(error.message).toContain(path);
    }
  });
});

describe('goal tool arguments', () => {
  it("names a camelCase or misspelt argument of every tool at its own path, with the tool's field it means", async () => {
    const p = project();
    const verdict = { run_dir: RUN, verdict: 'PASS', source: 'human' };
    for (const [tool, raw, key, meant] of [
      [p.evaluate, { run_dir: RUN, skipCommands: true }, 'skipCommands', 'skip_commands'],
      [p.submit, { ...verdict, criterionId: 'design' }, 'criterionId', 'criterion_id'],
      [p.status, { runDir: RUN }, 'runDir', 'run_dir'],
    ] as const) {
      const error = failed<unknown>(await tool.handler(raw));
      const message = `unknown key \`${key}\`; did you mean \`${meant}\`?`;
      expect(error.code).toBe('invalid_input');
      expect(error.message).toContain(`$.${key}: ${message}`);
      expect(error.issues).toContainEqual({ code: 'unrecognized_keys', path: [key], message });
    }
  });
});

describe('evaluate_goal cancellation', () => {
  it("passes the call's signal to the command criteria it runs, so a host that gives up kills them", async () => {
    const fs = createMemoryFileSystem({
      files: {
        [PATHS.goal]: JSON.stringify({
          schema_version: 1,
          goal_id: 'slow-goal',
          criteria: [{ id: 'suite', kind: 'command', command: 'sleep 600', rerun_stages: ['a'] }],
        }),
      },
    });
    const signals: (AbortSignal | undefined)[] = [];
    const commands = {
      run: async (_command: string, options: { signal?: AbortSignal }) => {
        signals.push(options.signal);
        // Resolves only when the signal aborts, as a killed command does.
        await new Promise<void>((resolve) => options.signal?.addEventListener('abort', () => resolve()));
        return { exitCode: null, timedOut: false, aborted: true, durationMs: 1, stdoutTail: '', stderrTail: '' };
      },
    };
    const [evaluate] = createGoalLoopTools({ fs, commands, stages: STAGES });
    const controller = new AbortController();
    const pending = evaluate.handler({ run_dir: RUN }, { signal: controller.signal });
    await vi.waitFor(() => expect(signals).toHaveLength(1));
    expect(signals[0]?.aborted).toBe(false);
    controller.abort();
    const output = ok(await pending);
    expect(signals[0]?.aborted).toBe(true);
    expect(output.failing_criteria.map((check) => check.id)).toContain('suite');
  });
});

describe('submit_verdict', () => {
  it('writes a signed verdict stamped for the next iteration, which the loop then consumes', async () => {
    const p = project();
    await p.fs.writeText(`${RUN}/report.json`, '{}');
    expect(await p.loop().run()).toMatchObject({ stoppedOn: 'ask_user', iteration: 1 });
    const output = ok(
      await p.submit.handler({
        run_dir: RUN,
        criterion_id: 'design',
        verdict: 'PASS',
        source: 'human',
        judge: 'architect',
        reasoning: 'Layers hold.',
      }),
    );
    expect(output).toEqual({
      run_dir: RUN,
      criterion_id: 'design',
      verdict: 'PASS',
      source: 'human',
      judge: 'human:architect',
      iteration: 2,
    });
    expect(JSON.parse((await p.fs.readText(PATHS.verdicts)) ?? '')).toEqual({
      verdicts: [
        { criterion_id: 'design', verdict: 'PASS', judge: 'human:architect', reasoning: 'Layers hold.', iteration: 2 },
      ],
    });
    expect(ok(await p.evaluate.handler({ run_dir: RUN })).status).toBe('PASS');
    expect(await p.loop().run()).toMatchObject({ stoppedOn: 'complete', iteration: 2 });
  });

  it("signs an agent's verdict agent:<judge> and requires its reasoning; a FAIL with block blocks", async () => {
    const p = project();
    const missing = failed(
      await p.submit.handler({ run_dir: RUN, criterion_id: 'design', verdict: 'FAIL', source: 'agent' }),
    );
    expect(missing).toMatchObject({ code: 'invalid_input', issues: [{ path: ['reasoning'] }] });
    const both = failed(
      await p.submit.handler({ run_dir: RUN, criterion_id: 'design', verdict: 'MAYBE', source: 'agent' }),
    );
    expect(both.issues.map((issue) => issue.path)).toEqual([['verdict'], ['reasoning']]);
    expect(await p.fs.readText(PATHS.verdicts)).toBeNull();
    const output = ok(
      await p.submit.handler({
        run_dir: RUN,
        criterion_id: 'design',
        verdict: 'FAIL',
        source: 'agent',
        reasoning: 'A cycle between b and a.',
        recommendation: 'block',
      }),
    );
    expect(output).toMatchObject({ judge: 'agent', iteration: 1, recommendation: 'block' });
    await p.fs.writeText(`${RUN}/report.json`, '{}');
    expect(await p.loop().run()).toMatchObject({ stoppedOn: 'blocked' });
  });

  it('names criterion_id when the goal has no such judge criterion, and writes nothing', async () => {
    const p = project();
    for (const id of ['nope', 'report']) {
      const error = failed(
        await p.submit.handler({ run_dir: RUN, criterion_id: id, verdict: 'PASS', source: 'human' }),
      );
      expect(error.code).toBe('invalid_input');
      expect(error.issues.map((issue) => issue.path)).toEqual([['criterion_id']]);
      expect(error.message).toContain('$.criterion_id');
    }
    expect(await p.fs.readText(PATHS.verdicts)).toBeNull();
  });

  it('refuses a source the host does not accept', async () => {
    const p = project({ verdictSources: ['agent'] });
    const call = { run_dir: RUN, criterion_id: 'design', verdict: 'PASS', source: 'human' } as const;
    expect(failed(await p.submit.handler(call))).toMatchObject({
      code: 'invalid_input',
      issues: [{ path: ['source'] }],
    });
    expect(ok(await p.submit.handler({ ...call, source: 'agent', reasoning: 'Checked.' })).judge).toBe('agent');
  });

  it('leaves a goal-verdict.json that is not JSON untouched, as an invalid_contract tool error', async () => {
    const p = project();
    await p.fs.writeText(PATHS.verdicts, '{ torn');
    const error = failed(
      await p.submit.handler({ run_dir: RUN, criterion_id: 'design', verdict: 'PASS', source: 'human' }),
    );
    expect(error.code).toBe('invalid_contract');
    expect(await p.fs.readText(PATHS.verdicts)).toBe('{ torn');
  });
});

describe('loop_status', () => {
  it('says not_started before any loop, then the stop, iteration and last decision of the run', async () => {
    const p = project();
    expect(ok(await p.status.handler({ run_dir: RUN }))).toMatchObject({
      state: 'not_started',
      iteration: 0,
      session: null,
      last_decision: null,
    });
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
      stage_status: { a: 'passed', b: 'passed' },
      last_decision: { iteration: 1, status: 'ASK_USER', failing_criteria: ['design', 'report'] },
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
