import { expect } from 'vitest';
import type { GoalEvaluation } from '../../src/goal/core/evaluate.js';
import { STAGE_ABORT_GRACE_MS } from '../../src/goal/stage-call.js';
import type { StageRunner } from '../../src/goal/stage-runner.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import type { StageOutcome } from '../../src/ports/stage-runner.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import { deferred, type Harness, harness, passed, RUN } from './helpers.js';

// The scenario of the late-cost tests: stage a costs $2 a call; its first call ignores its signal and reports only
// when the test lets it (after the loop stopped waiting), every later call reports at once.

export const LATE_FOLDER = `${RUN}/spend-pending`;

/** The pending late cost files of the run (names). */
export async function lateFiles(fs: FileSystem): Promise<string[]> {
  return ((await fs.list(LATE_FOLDER)) ?? []).filter((name) => name.endsWith('.json'));
}

/**
 * Waits until `check` holds: the watcher writes in the background. Turns of the event loop first (the memory
 * filesystem settles in a few), then real time up to 10 s (an fsync on a loaded machine can take a while).
 */
export async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let turn = 0; turn < 100; turn++) {
    if (await check()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`never happened: ${what}`);
}

/** Lets pending promise callbacks run. */
export const tick = async (): Promise<void> => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

/** A runner whose stage a costs $2 a call, the first call reporting only when `report()` is called. */
export interface LateRunner extends StageRunner {
  /** Resolves once the first call of stage a started. */
  readonly entered: Promise<void>;
  /** Makes the first call of stage a return `{ status: 'passed', costUsd: 2 }` now. */
  readonly report: () => void;
  /** How many calls of stage a were made (each one really costs $2). */
  readonly calls: () => number;
}

export function lateRunner(others: Record<string, StageRunner['run']> = {}): LateRunner {
  const entered = deferred();
  const late = deferred<StageOutcome>();
  let calls = 0;
  const rest = createScriptedStageRunner<GoalEvaluation>({ b: passed, c: passed });
  return {
    entered: entered.promise,
    report: () => late.resolve({ status: 'passed', costUsd: 2 }),
    calls: () => calls,
    run: (stage, ctx) => {
      if (stage !== 'a') return (others[stage] ?? rest.run)(stage, ctx);
      calls += 1;
      if (calls > 1) return Promise.resolve({ status: 'passed', costUsd: 2 });
      entered.resolve();
      return late.promise;
    },
  };
}

/** What the scenario needs of a harness (any filesystem). */
export type LateHarness = Pick<Harness, 'clock' | 'loop'> & { readonly fs: FileSystem };

/**
 * A run aborted during stage a's first call, whose runner reports its $2 three seconds after the abort: the
 * loop stopped waiting after the grace, so the cost sits in a pending file when this returns.
 */
export async function abortedWithLateCost<H extends LateHarness = Harness>(
  h: H = harness() as LateHarness as H,
): Promise<{ h: H; runner: LateRunner }> {
  const runner = lateRunner();
  const controller = new AbortController();
  const running = h.loop(runner, { signal: controller.signal }).run();
  await runner.entered;
  controller.abort(new Error('stop'));
  await tick();
  h.clock.advance(STAGE_ABORT_GRACE_MS);
  const aborted = await running;
  expect(aborted).toMatchObject({ stoppedOn: 'aborted', spentUsd: 0 });
  h.clock.advance(3_000 - STAGE_ABORT_GRACE_MS);
  runner.report();
  await until(async () => (await lateFiles(h.fs)).length === 1, 'the pending late cost file');
  return { h, runner };
}
