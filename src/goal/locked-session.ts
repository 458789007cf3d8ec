// One session under the run's lock: takes the lock, sweeps the temp files a crash left, opens the session (resume,
// new, or a recorded stop) with everything it writes through fenced by the lock, works with it, and releases the lock.
import { joinPath } from '../kit/paths.js';
import type { RunPaths } from '../pipeline/run-paths.js';
import type { Clock } from '../ports/clock.js';
import type { FileSystem } from '../ports/file-system.js';
import type { EventFeed } from '../runtime/event-feed.js';
import { withHeartbeat } from '../runtime/heartbeat.js';
import { createJsonStore } from '../runtime/json-store.js';
import { JsonlLog } from '../runtime/jsonl-log.js';
import { lockOwner, withAcquiredLock } from '../runtime/lock-scope.js';
import { OutboxCommit } from '../runtime/outbox.js';
import { RunLock } from '../runtime/run-lock.js';
import type { LoopEvent } from './contracts/events.js';
import { type LoopState, loopStateSchema } from './contracts/loop-state.js';
import type { GoalReader } from './goal-reader.js';
import { containLateCostFolder } from './late-cost-files.js';
import type { LoopStepResult } from './loop-result.js';
import type { LoopTrace } from './loop-trace.js';
import { type GoalLoopOptions, stageTimeout } from './options.js';
import { containRunPaths } from './run-files.js';
import type { RunGatherer } from './run-gatherer.js';
import type { IfStopped } from './run-options.js';
import { LoopSession } from './session.js';

// How old a temp file of an atomic write must be before a session start removes it.
const STALE_TEMP_MS = 60_000;

// The signal stage runners get when the host passed none.

/** What a locked session takes from its loop (fixed when the loop is made). @internal */
export interface LoopContext {
  readonly options: GoalLoopOptions;
  readonly paths: RunPaths;
  readonly clock: Clock;
  readonly lockTimeoutMs: number;
  readonly maxIterations: { readonly value: number; readonly requested?: number };
  readonly goals: GoalReader;
  readonly feed: EventFeed<LoopEvent>;
  readonly gathererFor: (paths: RunPaths) => RunGatherer;
}

/** Runs `work` with a session opened under the run's lock, and releases the lock whatever happens. @internal */
export async function withLockedSession(
  context: LoopContext,
  trace: LoopTrace,
  ifStopped: IfStopped,
  work: (session: LoopSession) => Promise<LoopStepResult>,
): Promise<LoopStepResult> {
  const paths = await containRunPaths(context.options.fs, context.paths);
  const owner = lockOwner('goal-loop');
  const lock = new RunLock(context.options.fs, paths.lock, context.clock, owner, context.lockTimeoutMs);
  return withAcquiredLock(lock, async (takeover) => {
    // Everything the session writes, stage runners' artifacts included, goes through the lock's fenced writer.
    const fs = lock.writer;
    // Temp files of the loop's own atomic writes a crash cut off, beside its files (older than a minute, so no live
    // writer's); of the iterations/ folders only the latest, where a crash cut an evaluation's write off (a long run's
    // earlier folders cost nothing here).
    await fs.removeStaleTempFiles?.(paths.runDir, { olderThanMs: STALE_TEMP_MS });
    const latest = await latestIterationFolder(fs, paths.runDir);
    if (latest !== null) await fs.removeStaleTempFiles?.(latest, { olderThanMs: STALE_TEMP_MS });
    const lateCostFolder = await containLateCostFolder(fs, paths.runDir);
    await fs.removeStaleTempFiles?.(lateCostFolder, { olderThanMs: STALE_TEMP_MS });
    const log = new JsonlLog<LoopEvent>(fs, paths.events, (event) => context.feed.publish(event));
    const store = createJsonStore<typeof loopStateSchema>(fs, paths.state, loopStateSchema);
    const gatherer = context.gathererFor(paths);
    const heartbeatEvery = Math.max(1, Math.floor(context.lockTimeoutMs / 3));
    const opened = await LoopSession.open(
      {
        fs,
        paths,
        lateCostFolder,
        runner: context.options.runner,
        clock: context.clock,
        signal: context.options.signal ?? new AbortController().signal,
        commit: new OutboxCommit<LoopState, LoopEvent>(store, log, () => lock.fenceWrite()),
        stages: context.options.stages,
        budgetUsd: context.options.budgetUsd,
        acceptGoalChange: context.options.acceptGoalChange ?? false,
        askJudges: context.options.askJudges ?? 'last',
        maxIterations: context.maxIterations,
        loadGoal: () => context.goals.load(paths.goal),
        gather: (goal, state) => gatherer.gather(goal.goal, state, { iteration: state.iteration, skipCommands: false }),
        stageTimeoutMs: (stage) => stageTimeout(context.options.stageTimeoutMs, stage),
        fence: () => lock.fence(),
        heartbeat: (task) => withHeartbeat(lock, context.clock, heartbeatEvery, task),
        trace,
      },
      takeover,
      ifStopped,
    );
    return opened instanceof LoopSession ? await work(opened) : opened;
  });
}

// The folder of the run's highest-numbered iteration (iterations/<n>), or null when there is none.
async function latestIterationFolder(fs: FileSystem, runDir: string): Promise<string | null> {
  const folder = joinPath(runDir, 'iterations');
  const numbers = ((await fs.list(folder)) ?? []).filter((name) => /^[1-9]\d*$/.test(name)).map(Number);
  // A reduce, not Math.max(...numbers): a folder of a hundred thousand or so names would overflow the call stack.
  return numbers.length === 0 ? null : joinPath(folder, String(numbers.reduce((a, b) => Math.max(a, b))));
}
