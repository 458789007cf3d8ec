import { expect } from 'vitest';
import { type LoopEvent, loopEventSchema } from '../../src/goal/contracts/events.js';
import { type LoopState, loopStateSchema } from '../../src/goal/contracts/loop-state.js';
import type { StopReason } from '../../src/goal/contracts/stop-reason.js';
import type { GoalEvaluation } from '../../src/goal/core/evaluate.js';
import { exitCodeFor } from '../../src/goal/core/exit-code.js';
import { GoalLoop } from '../../src/goal/goal-loop.js';
import type { LoopResult } from '../../src/goal/loop-result.js';
import type { GoalLoopOptions } from '../../src/goal/options.js';
import type { StageContext, StageRunner } from '../../src/goal/stage-runner.js';
import { runPaths } from '../../src/pipeline/run-paths.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import type { StageOutcome } from '../../src/ports/stage-runner.js';
import { createManualClock, type ManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem, type MemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { createScriptedStageRunner, type ScriptedStep } from '../../src/testing/scripted-stage-runner.js';

// Shared builders for the loop tests: a run dir, goal files, stage steps, and readers of what the loop wrote.

export const RUN = '.goal-loop/runs/r-1';
export const PATHS = runPaths(RUN);
export const STAGES = ['a', 'b', 'c'] as const;
export const START = Date.UTC(2025, 0, 1);

type Raw = Record<string, unknown>;

// goal.json text from criteria.
export function goalJson(criteria: readonly Raw[], extra: Raw = {}): string {
  return JSON.stringify({ schema_version: 1, goal_id: 'test-goal', ...extra, criteria });
}

export const judge = (id: string, rerun: string[] = []): Raw => ({
  id,
  kind: 'judge',
  question: `Is ${id} good?`,
  rerun_stages: rerun,
});
export const fileExists = (id: string, path: string, rerun: string[] = [], extra: Raw = {}): Raw => ({
  id,
  kind: 'file_exists',
  path,
  rerun_stages: rerun,
  ...extra,
});
export const metricFile = (id: string, file: string, operator: string, value: number, rerun: string[] = []): Raw => ({
  id,
  kind: 'metric_threshold',
  source: { file },
  metric: 'value',
  operator,
  value,
  rerun_stages: rerun,
});
export const command = (id: string, line: string, rerun: string[] = []): Raw => ({
  id,
  kind: 'command',
  command: line,
  rerun_stages: rerun,
});

export const passed: StageOutcome = { status: 'passed' };
export const failed: StageOutcome = { status: 'failed', detail: 'it failed' };

// A scripted runner under which the three stages all pass.
export const allPass = () => createScriptedStageRunner({ a: passed, b: passed, c: passed });
// A scripted runner under which b fails once, so the run completes at its second iteration.
export const retryOnce = () => createScriptedStageRunner({ a: passed, b: [failed, passed], c: passed });

// A stage step that writes a run-relative file (content computed from the context) and returns an outcome.
export function writes(
  path: string,
  content: (ctx: StageContext) => unknown,
  outcome: StageOutcome = passed,
): ScriptedStep<GoalEvaluation> {
  return async (ctx) => {
    await ctx.fs.writeText(`${ctx.runDir}/${path}`, JSON.stringify(content(ctx)));
    return outcome;
  };
}

/** A memory project with a manual clock and a factory of loops on its run dir that record the events they emit. */
export interface Harness {
  readonly fs: MemoryFileSystem;
  readonly clock: ManualClock;
  /** Every event any loop of this harness passed to onEvent. */
  readonly seen: LoopEvent[];
  loop(runner: StageRunner, options?: Partial<GoalLoopOptions>): GoalLoop;
}

export function harness(files: Record<string, string> = {}): Harness {
  const fs = createMemoryFileSystem({ files });
  const clock = createManualClock(START);
  const seen: LoopEvent[] = [];
  return {
    fs,
    clock,
    seen,
    loop: (runner, options = {}) =>
      new GoalLoop({
        fs,
        runDir: RUN,
        stages: [...STAGES],
        runner,
        clock,
        onEvent: (event) => seen.push(event),
        ...options,
      }),
  };
}

// The files of a run dir keyed by name.
export const runFile = (name: string): string => `${RUN}/${name}`;

// A run that retries stage a once: m.json holds the iteration, and the goal wants 2.
export function twoIterations() {
  const h = harness({ [runFile('goal.json')]: goalJson([metricFile('m', 'out/m.json', '>=', 2, ['a'])]) });
  const runner = createScriptedStageRunner({
    a: writes('out/m.json', (ctx) => ({ value: ctx.iteration }), { status: 'passed', costUsd: 0.25 }),
    b: passed,
    c: passed,
  });
  return { h, runner };
}

// The run files of a goal of one judge criterion, `design` (rerunning b).
export const JUDGE_GOAL = { [runFile('goal.json')]: goalJson([judge('design', ['b'])]) };

// The raw lines of events.jsonl (the trailing empty string dropped).
export async function eventLines(fs: FileSystem, path = PATHS.events): Promise<string[]> {
  const text = (await fs.readText(path)) ?? '';
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

// The events of events.jsonl, torn (unparseable) lines skipped; every whole line must match the schema.
export async function readEvents(fs: FileSystem, path = PATHS.events): Promise<LoopEvent[]> {
  const events: LoopEvent[] = [];
  for (const line of await eventLines(fs, path)) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    events.push(loopEventSchema.parse(value));
  }
  return events;
}

// loop-state.json, parsed with its schema (null when missing).
export async function readState(fs: FileSystem, path = PATHS.state): Promise<LoopState | null> {
  const text = await fs.readText(path);
  return text === null ? null : loopStateSchema.parse(JSON.parse(text));
}

// The event types of a log, in order.
export const typesOf = (events: readonly LoopEvent[]): string[] => events.map((event) => event.type);

// The decisions events.jsonl records (loop_completed, loop_blocked), in order.
export const decisions = async (fs: FileSystem) =>
  typesOf(await readEvents(fs, PATHS.events)).filter((type) => type === 'loop_completed' || type === 'loop_blocked');

// Asserts a stop and its CLI exit code.
export function expectStop(result: LoopResult, stoppedOn: StopReason, exitCode: number): void {
  expect(result.stoppedOn, result.reason).toBe(stoppedOn);
  expect(exitCodeFor(result)).toBe(exitCode);
}

// A promise with its resolve function exposed.
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

// A step that aborts the given controller while it runs (the runner then rejects with the signal's reason).
export function abortsDuring(controller: AbortController, seen: AbortSignal[] = []): ScriptedStep<GoalEvaluation> {
  return (ctx) => {
    seen.push(ctx.signal);
    controller.abort(new Error('stop requested'));
    return new Promise<StageOutcome>(() => undefined);
  };
}
