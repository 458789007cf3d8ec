import { describe, expect, it } from 'vitest';
import { GoalLoop, type GoalLoopOptions, type LoopEvent, type StageRunner } from '../../src/index.js';
import { runPaths } from '../../src/pipeline/run-paths.js';
import {
  createManualClock,
  createMemoryFileSystem,
  createScriptedStageRunner,
  type ScriptedStep,
} from '../../src/testing.js';

// What a RETRY carries forward: the stages it named (into the next session too) and the criteria it failed on
// (into the stage runner's context, also when the retry iteration is resumed). Public API only.

const RUN = '.goal-loop/runs/r-carry';
const PATHS = runPaths(RUN);
const passed = { status: 'passed' } as const;

const goalJson = (criteria: readonly Record<string, unknown>[]) =>
  JSON.stringify({ schema_version: 1, goal_id: 'carry', criteria });
const exists = (id: string, path: string, rerun: string[]) => ({ id, kind: 'file_exists', path, rerun_stages: rerun });

function project(criteria: readonly Record<string, unknown>[], files: Record<string, string> = {}) {
  const fs = createMemoryFileSystem({ files: { [PATHS.goal]: goalJson(criteria), ...files } });
  const clock = createManualClock(Date.UTC(2025, 0, 1));
  const events: LoopEvent[] = [];
  const loop = (runner: StageRunner, options: Partial<GoalLoopOptions> = {}) =>
    new GoalLoop({
      fs,
      runDir: RUN,
      stages: ['a', 'b', 'c'],
      runner,
      clock,
      onEvent: (event) => events.push(event),
      ...options,
    });
  return { fs, events, loop };
}

// The reason of the RETRY the loop logged (loop_iteration_retrying_stages), which the stage runner should get.
const retryReason = (events: readonly LoopEvent[]): string => {
  const retry = events.find((event) => event.type === 'loop_iteration_retrying_stages');
  if (retry?.type !== 'loop_iteration_retrying_stages') throw new Error('no RETRY was logged');
  return retry.reason;
};

describe('a new session after a stop on a RETRY', () => {
  it('reruns the stages the last RETRY named, though they passed before', async () => {
    const p = project([exists('report', 'out/report.md', ['b'])]);
    const runner = createScriptedStageRunner({
      a: passed,
      b: [
        passed,
        async (ctx) => {
          await ctx.fs.writeText('out/report.md', '# report');
          return passed;
        },
      ],
      c: passed,
    });
    const first = await p.loop(runner, { maxIterations: 1 }).run();
    expect(first).toMatchObject({ stoppedOn: 'max_iterations', iteration: 1 });
    expect(first.evaluation).toMatchObject({ status: 'RETRY', recommendedRerunStages: ['b'] });
    expect(runner.stageIds()).toEqual(['a', 'b', 'c']);

    const second = await p.loop(runner, { maxIterations: 1 }).run();
    expect(runner.calls.slice(3).map((call) => [call.stageId, call.iteration])).toEqual([['b', 2]]);
    expect(second).toMatchObject({ stoppedOn: 'complete', iteration: 2, iterations: 1 });
    const started = p.events.filter((event) => event.type === 'loop_iteration_started');
    expect(started.at(-1)).toMatchObject({ iteration: 2, stages: ['b'] });
  });

  it('reruns nothing that passed when the last stop was not a RETRY', async () => {
    const judge = { id: 'design', kind: 'judge', question: 'Is the design good?', rerun_stages: ['b'] };
    const p = project([judge]);
    const runner = createScriptedStageRunner({ a: passed, b: passed, c: passed });
    expect(await p.loop(runner).run()).toMatchObject({ stoppedOn: 'ask_user', iteration: 1 });
    expect(await p.loop(runner).run()).toMatchObject({ stoppedOn: 'ask_user', iteration: 2 });
    expect(runner.stageIds()).toEqual(['a', 'b', 'c']);
  });
});

describe('the criteria a RETRY failed on reach the stage runner', () => {
  // Three criteria: one met, one FAIL (rerun b), one PENDING (its run-relative metric source is missing; rerun b too).
  const criteria = [
    exists('readme', 'README.md', ['a']),
    exists('report', 'out/report.md', ['b']),
    {
      id: 'coverage',
      kind: 'metric_threshold',
      source: { file: 'out/cov.json' },
      metric: 'pct',
      operator: '>=',
      value: 80,
      rerun_stages: ['b'],
    },
  ];
  const files = { 'README.md': '# hi' };
  const fixes: ScriptedStep = async (ctx) => {
    await ctx.fs.writeText('out/report.md', '# report');
    await ctx.fs.writeText(`${ctx.runDir}/out/cov.json`, JSON.stringify({ pct: 90 }));
    return passed;
  };

  it('on the retry iteration: { kind: retry, reason, criteria: the ids not PASS }', async () => {
    const p = project(criteria, files);
    const runner = createScriptedStageRunner({ a: passed, b: [passed, fixes], c: passed });
    expect(await p.loop(runner).run()).toMatchObject({ stoppedOn: 'complete', iteration: 2 });
    expect(runner.calls.map((call) => [call.stageId, call.iteration])).toEqual([
      ['a', 1],
      ['b', 1],
      ['c', 1],
      ['b', 2],
    ]);
    expect(runner.calls[0]?.reason).toEqual({ kind: 'initial' });
    expect(runner.calls[3]?.reason).toEqual({
      kind: 'retry',
      reason: retryReason(p.events),
      criteria: ['report', 'coverage'],
    });
  });

  it('on a retry iteration resumed after an abort: { kind: resume, retry: { reason, criteria } }', async () => {
    const p = project(criteria, files);
    const controller = new AbortController();
    const aborts = () => {
      controller.abort(new Error('stop requested'));
      return new Promise<never>(() => undefined);
    };
    const runner = createScriptedStageRunner({ a: passed, b: [passed, aborts, fixes], c: passed });
    expect(await p.loop(runner, { signal: controller.signal }).run()).toMatchObject({
      stoppedOn: 'aborted',
      iteration: 2,
    });
    expect(await p.loop(runner).run()).toMatchObject({ stoppedOn: 'complete', iteration: 2 });
    const retries = runner.calls.slice(3);
    expect(retries.map((call) => [call.stageId, call.iteration])).toEqual([
      ['b', 2],
      ['b', 2],
    ]);
    const retry = { reason: retryReason(p.events), criteria: ['report', 'coverage'] };
    expect(retries.map((call) => call.reason)).toEqual([
      { kind: 'retry', ...retry },
      { kind: 'resume', retry },
    ]);
  });
});
