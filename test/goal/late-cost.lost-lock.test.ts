import { describe, expect, it } from 'vitest';
import { GoalLoop } from '../../src/goal/goal-loop.js';
import type { StageRunner } from '../../src/goal/stage-runner.js';
import type { StageOutcome } from '../../src/ports/stage-runner.js';
import { createFakeCommandRunner } from '../../src/testing/fake-command-runner.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem, type MemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { command, deferred, expectStop, goalJson, PATHS, RUN, readEvents, START } from './helpers.js';
import { LATE_FOLDER, lateFiles, until } from './late-cost-helpers.js';

// A stage returns its cost in time, but its loop stalled past the lock timeout before it could commit it (no
// heartbeat ran: with the manual clock never advanced, as with a runner that blocks the event loop) and another loop
// took the run over. The commit is refused (RUN_LOCKED) and the cost goes to spend-pending/, where the loop holding
// the lock now or next counts it once.

const TIMEOUT_MS = 9_000;
const STAGES = ['a'];

// A loop on the shared filesystem whose clock reads `at`.
const loopOn = (fs: MemoryFileSystem, runner: StageRunner, at: number) =>
  new GoalLoop({ fs, runDir: RUN, stages: STAGES, runner, clock: createManualClock(at), lockTimeoutMs: TIMEOUT_MS });

// A runner whose stage a waits until `release` and then costs `costUsd`.
function heldStage(costUsd: number) {
  const entered = deferred();
  const release = deferred();
  const runner: StageRunner = {
    run: async (): Promise<StageOutcome> => {
      entered.resolve();
      await release.promise;
      return { status: 'passed', costUsd };
    },
  };
  return { runner, entered: entered.promise, release: () => release.resolve() };
}

const metricsSpend = async (fs: MemoryFileSystem): Promise<unknown> =>
  JSON.parse((await fs.readText(PATHS.metrics)) ?? '{}').cumulative_cost_usd;

describe('a stage cost whose commit is refused because the lock was lost', () => {
  it('the loop that took over and finished leaves it to the next run: $5 + $1 spent, 6 recorded, once', async () => {
    const fs = createMemoryFileSystem();
    const stalled = heldStage(5);
    const first = loopOn(fs, stalled.runner, START).run();
    const firstEnd = first.then(
      () => 'resolved',
      (error: { code?: string }) => error.code,
    );
    await stalled.entered;

    // Another loop, whose clock finds the first one's heartbeat stale, takes over, reruns stage a ($1) and completes.
    const taker = await loopOn(
      fs,
      { run: async () => ({ status: 'passed', costUsd: 1 }) },
      START + TIMEOUT_MS + 1,
    ).run();
    expectStop(taker, 'complete', 0);
    expect(taker.spentUsd).toBe(1);

    // The first loop's stage returns its $5 now; its commit is refused, the cost is parked, the run rejects as before.
    stalled.release();
    expect(await firstEnd).toBe('RUN_LOCKED');
    const [name] = await lateFiles(fs);
    expect(JSON.parse((await fs.readText(`${LATE_FOLDER}/${name}`)) ?? '{}')).toMatchObject({
      stage: 'a',
      iteration: 1,
      cost_usd: 5,
    });
    expect(await metricsSpend(fs)).toBe(1);

    const next = await loopOn(fs, { run: async () => ({ status: 'passed' }) }, START + TIMEOUT_MS + 2).run();
    expect(next.spentUsd).toBe(6);
    expect(await metricsSpend(fs)).toBe(6);
    expect(await lateFiles(fs)).toEqual([]);
    const recorded = (await readEvents(fs)).filter((event) => event.type === 'late_cost_recorded');
    expect(recorded).toEqual([expect.objectContaining({ stage: 'a', stage_iteration: 1, cost_usd: 5 })]);
    const again = await loopOn(fs, { run: async () => ({ status: 'passed' }) }, START + TIMEOUT_MS + 3).run();
    expect(again.spentUsd).toBe(6);
  });

  it('the loop holding the lock counts it before its next budget check: a budget of 5.5 stops it after its stage', async () => {
    const fs = createMemoryFileSystem();
    const stalled = heldStage(5);
    const first = loopOn(fs, stalled.runner, START)
      .run()
      .catch((error: { code?: string }) => error.code);
    await stalled.entered;

    const taking = heldStage(1);
    const taker = new GoalLoop({
      fs,
      runDir: RUN,
      stages: STAGES,
      runner: taking.runner,
      clock: createManualClock(START + TIMEOUT_MS + 1),
      lockTimeoutMs: TIMEOUT_MS,
      budgetUsd: 5.5,
    }).run();
    await taking.entered;
    stalled.release();
    expect(await first).toBe('RUN_LOCKED');
    await until(async () => (await lateFiles(fs)).length === 1, 'the parked cost');

    taking.release();
    const result = await taker;
    expectStop(result, 'budget_exhausted', 7);
    expect(result.spentUsd).toBe(6);
    expect(await metricsSpend(fs)).toBe(6);
    expect(await lateFiles(fs)).toEqual([]);
  });

  it('parks nothing for a stage without cost, nor again for an earlier stage whose cost was committed', async () => {
    const fs = createMemoryFileSystem();
    const stalled = heldStage(0);
    const runner: StageRunner = {
      run: (stage, context) =>
        stage === 'a' ? Promise.resolve({ status: 'passed', costUsd: 2 }) : stalled.runner.run(stage, context),
    };
    const first = new GoalLoop({
      fs,
      runDir: RUN,
      stages: ['a', 'b'],
      runner,
      clock: createManualClock(START),
      lockTimeoutMs: TIMEOUT_MS,
    })
      .run()
      .catch((error: { code?: string }) => error.code);
    await stalled.entered;
    expect(await metricsSpend(fs)).toBe(2);
    const taker = new GoalLoop({
      fs,
      runDir: RUN,
      stages: ['a', 'b'],
      runner: { run: async () => ({ status: 'passed' }) },
      clock: createManualClock(START + TIMEOUT_MS + 1),
      lockTimeoutMs: TIMEOUT_MS,
    });
    expect((await taker.run()).spentUsd).toBe(2);
    stalled.release();
    expect(await first).toBe('RUN_LOCKED');
    expect(await fs.list(LATE_FOLDER)).toBeNull();
  });

  it('parks nothing when the lock is lost after the stage cost was committed (during the evaluation)', async () => {
    const fs = createMemoryFileSystem({ files: { [`${RUN}/goal.json`]: goalJson([command('tests', 'npm test')]) } });
    const evaluating = deferred();
    const release = deferred();
    const held = createFakeCommandRunner({
      'npm test': async () => {
        evaluating.resolve();
        await release.promise;
        return { exitCode: 0 };
      },
    });
    const paid: StageRunner = { run: async () => ({ status: 'passed', costUsd: 2 }) };
    const first = new GoalLoop({
      fs,
      runDir: RUN,
      stages: STAGES,
      runner: paid,
      commands: held,
      clock: createManualClock(START),
      lockTimeoutMs: TIMEOUT_MS,
    })
      .run()
      .catch((error: { code?: string }) => error.code);
    await evaluating.promise;
    const taker = new GoalLoop({
      fs,
      runDir: RUN,
      stages: STAGES,
      runner: paid,
      commands: createFakeCommandRunner({ 'npm test': { exitCode: 0 } }),
      clock: createManualClock(START + TIMEOUT_MS + 1),
      lockTimeoutMs: TIMEOUT_MS,
    });
    expect((await taker.run()).spentUsd).toBe(2);
    release.resolve();
    expect(await first).toBe('RUN_LOCKED');
    expect(await fs.list(LATE_FOLDER)).toBeNull();
  });
});
