import { describe, expect, it, vi } from 'vitest';
import { createGoalLoopTools } from '../../../src/index.js';
import { createMemoryFileSystem } from '../../../src/testing.js';
import { failed, ok } from '../../ports/tools.js';
import { PATHS, project, RUN, STAGES } from './project.js';

describe('evaluate_goal', () => {
  it('evaluates without a loop: the judge PENDING and deferred, the missing file FAIL, so RETRY', async () => {
    const p = project();
    const output = ok(await p.evaluate.handler({ run_dir: RUN, stages: STAGES, skip_commands: true }));
    expect(output).toMatchObject({ run_dir: RUN, goal_id: 'tools-goal', status: 'RETRY', iteration: null });
    expect(output.deferred_judges).toEqual([
      { criterion_id: 'design', reason: expect.stringContaining('asked once nothing else is rerun') },
    ]);
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
    expect(ok(await project({ stages: STAGES }).evaluate.handler({ run_dir: RUN })).status).toBe('RETRY');
    await p.fs.writeText(`${RUN}/report.json`, '{}');
    expect(await p.loop().run()).toMatchObject({ stoppedOn: 'ask_user', iteration: 1 });
    const output = ok(await p.evaluate.handler({ run_dir: RUN }));
    expect(output).toMatchObject({ status: 'ASK_USER', iteration: 1, score: 75 });
    expect(output.failing_criteria.map((check) => check.id)).toEqual(['design']);
  });

  it("uses the host's feedbackStage on a run whose stages have it, and none on a run whose stages do not", async () => {
    const p = project({ feedbackStage: 'b' });
    const withIt = ok(await p.evaluate.handler({ run_dir: RUN, stages: STAGES, skip_commands: true }));
    expect(withIt).toMatchObject({ status: 'RETRY', deferred_judges: [{ criterion_id: 'design' }] });
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
