import { describe, expect, it } from 'vitest';
import type { LoopEvent } from '../../src/goal/contracts/events.js';
import { GoalLoop } from '../../src/goal/goal-loop.js';
import type { LoopResult } from '../../src/goal/loop-result.js';
import type { StageRunner } from '../../src/goal/stage-runner.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import { createManualClock, type ManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { crashing } from '../runtime/helpers.js';
import { goalJson, metricFile, RUN, readEvents, readState, runFile, STAGES, START } from './helpers.js';

// THE crash-point test: for every k, the k-th write (and every later one) fails as if the process died
// there; a resumed loop must reach the uninterrupted run's decision with no lost or duplicated event.

const LOCK_TIMEOUT_MS = 60_000;

// Three stages; b fails in iterations 1 and 2 and passes in 3, and writes a metric that moves with the
// iteration (so each retry is progress). Outcomes depend only on (stage, iteration), never on call counts.
type Call = { readonly stage: string; readonly iteration: number };
function recordingRunner(calls: Call[] = []): StageRunner {
  return {
    async run(stage, ctx) {
      calls.push({ stage, iteration: ctx.iteration });
      if (stage !== 'b') return { status: 'passed', costUsd: 0.25 };
      await ctx.fs.writeText(`${ctx.runDir}/artifacts/b.json`, JSON.stringify({ value: ctx.iteration }));
      return ctx.iteration >= 3
        ? { status: 'passed', costUsd: 0.5 }
        : { status: 'failed', costUsd: 0.5, detail: `b fails in iteration ${ctx.iteration}` };
    },
  };
}

const project = () =>
  createMemoryFileSystem({
    files: { [runFile('goal.json')]: goalJson([metricFile('progress', 'artifacts/b.json', '>=', 3, ['b'])]) },
  });
const loopOn = (fs: FileSystem, clock: ManualClock, calls: Call[] = []) =>
  new GoalLoop({
    fs,
    clock,
    runDir: RUN,
    stages: [...STAGES],
    runner: recordingRunner(calls),
    lockTimeoutMs: LOCK_TIMEOUT_MS,
  });

// What an event means, without its timestamp and seq.
const essence = (event: LoopEvent): string =>
  [
    event.type,
    event.iteration,
    'stage' in event ? event.stage : '',
    'stopped_on' in event ? event.stopped_on : '',
  ].join(' ');
// Events a crash and a resume add by design: the resume itself and the lock takeover.
const isResumeNoise = (event: LoopEvent): boolean =>
  event.type === 'loop_resumed' ||
  event.type === 'lock_taken_over' ||
  (event.type === 'loop_blocked' && event.stopped_on === 'aborted');

// A stage the crash interrupted (started, not completed) is started again on resume, by design: only
// finished stages are not rerun. Its first `stage_started` is dropped, but only when the next
// `loop_resumed` lists that stage as pending in that iteration and nothing completed it in between.
function dropInterruptedStarts(events: readonly LoopEvent[]): LoopEvent[] {
  return events.filter((event, index) => {
    if (event.type !== 'stage_started') return true;
    const rest = events.slice(index + 1);
    const at = rest.findIndex((later) => later.type === 'loop_resumed');
    const resume = rest[at];
    if (resume?.type !== 'loop_resumed') return true;
    const completed = rest
      .slice(0, at)
      .some((later) => later.type === 'stage_completed' && later.stage === event.stage);
    return completed || resume.iteration !== event.iteration || !resume.pending_stages.includes(event.stage);
  });
}

interface Reference {
  readonly result: LoopResult;
  readonly events: string[];
  readonly writes: number;
}

async function reference(): Promise<Reference> {
  const fs = crashing(project());
  const result = await loopOn(fs, createManualClock(START)).run();
  expect(await fs.readText(`${RUN}/loop.lock`)).toBeNull();
  return { result, events: (await readEvents(fs)).map(essence), writes: fs.writes() };
}

// Crashes a fresh run at write k, then resumes on the intact filesystem until a terminal stop.
async function crashAndResume(k: number) {
  const fs = project();
  const clock = createManualClock(START);
  const crash = await loopOn(crashing(fs, k), clock)
    .run()
    .then(
      () => null,
      (error: unknown) => error,
    );
  const stateAfterCrash = await readState(fs);
  const loggedAtCrash = (await readEvents(fs)).length;
  clock.advance(LOCK_TIMEOUT_MS + 1);
  const calls: Call[] = [];
  let result = await loopOn(fs, clock, calls).run();
  for (let attempt = 0; attempt < 3 && result.stoppedOn === 'aborted'; attempt++)
    result = await loopOn(fs, clock, calls).run();
  return { crash, stateAfterCrash, loggedAtCrash, result, calls, events: await readEvents(fs) };
}

describe('crash at every write of a three-iteration run', async () => {
  const ref = await reference();

  it('the reference run takes three iterations and completes', () => {
    expect(ref.result).toMatchObject({ stoppedOn: 'complete', iteration: 3, iterations: 3 });
    expect(ref.events.filter((event) => event.startsWith('loop_iteration_started'))).toHaveLength(3);
    expect(ref.writes).toBeGreaterThan(20);
  });

  const ks = Array.from({ length: ref.writes }, (_, index) => index + 1);
  it.each(ks)('crash at write %i, then resume: same decision, every event exactly once', async (k) => {
    const { crash, stateAfterCrash, loggedAtCrash, result, calls, events } = await crashAndResume(k);
    expect(crash).toMatchObject({ name: 'GoalLoopError', code: 'IO_ERROR' });

    // The log itself: seqs 0..n-1 (strictly increasing, no gap), no iteration started twice.
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index));
    const started = events.filter((event) => event.type === 'loop_iteration_started').map((event) => event.iteration);
    expect(new Set(started).size).toBe(started.length);

    // Finished stages are never rerun: the resumed iteration skips what the crashed run completed.
    if (stateAfterCrash?.phase === 'running_stages') {
      const finished = new Set(stateAfterCrash.completed_stages.map((record) => record.stage));
      expect(calls.filter((call) => call.iteration === stateAfterCrash.iteration && finished.has(call.stage))).toEqual(
        [],
      );
    }

    const seen = dropInterruptedStarts(events)
      .filter((event) => !isResumeNoise(event))
      .map(essence);
    if (stateAfterCrash?.phase !== 'stopped') {
      expect(result.stoppedOn).toBe(ref.result.stoppedOn);
      expect(result.iteration).toBe(ref.result.iteration);
      expect(seen).toEqual(ref.events);
      return;
    }
    // The crash came after the terminal stop was persisted: the crashed run reached the decision.
    expect(stateAfterCrash.stop).toMatchObject({ stopped_on: ref.result.stoppedOn, iteration: ref.result.iteration });
    if (loggedAtCrash < ref.events.length) {
      // The stop's events were still in the outbox, so the caller never saw it: run() delivers them
      // and returns the saved stop (its evaluation read back from the iteration's file) instead of opening a new
      // session.
      expect(result).toMatchObject({
        stoppedOn: ref.result.stoppedOn,
        iteration: ref.result.iteration,
        evaluation: ref.result.evaluation,
      });
      expect(seen).toEqual(ref.events);
    } else {
      // Every event was already delivered (only the lock release failed): as after any terminal stop,
      // the next run() opens a new session that continues the run-wide counter.
      expect(seen.slice(0, ref.events.length)).toEqual(ref.events);
      expect(seen[ref.events.length]).toBe(`loop_iteration_started ${ref.result.iteration + 1}  `);
      expect(result).toMatchObject({
        stoppedOn: ref.result.stoppedOn,
        iteration: ref.result.iteration + 1,
        iterations: 1,
      });
    }
    expect(calls).toEqual([]);
  });
});
