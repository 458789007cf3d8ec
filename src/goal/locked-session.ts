import { joinPath } from '../kit/paths.js';
import type { RunPaths } from '../pipeline/run-paths.js';
import type { Clock } from '../ports/clock.js';
import type { FileSystem } from '../ports/file-system.js';
import type { EventFeed } from '../runtime/event-feed.js';
import { containPendingCostFolder } from '../runtime/pending-costs.js';
import { withUnitOfWork } from '../runtime/unit-of-work.js';
import type { LoopEvent } from './contracts/events.js';
import { type LoopState, loopStateSchema } from './contracts/loop-state.js';
import type { GoalReader } from './goal-reader.js';
import type { LoopStepResult } from './loop-result.js';
import type { LoopTrace } from './loop-trace.js';
import { type GoalLoopOptions, stageTimeout } from './options.js';
import { containRunPaths } from './run-files.js';
import type { RunGatherer } from './run-gatherer.js';
import type { IfStopped } from './run-options.js';
import { LoopSession } from './session.js';

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

/** Runs `work` with the run's session opened (resumed, new, or a recorded stop) as a unit of work. @internal */
export async function withLockedSession(
  context: LoopContext,
  trace: LoopTrace,
  ifStopped: IfStopped,
  work: (session: LoopSession) => Promise<LoopStepResult>,
): Promise<LoopStepResult> {
  const paths = await containRunPaths(context.options.fs, context.paths);
  const spec = { fs: context.options.fs, lockPath: paths.lock, clock: context.clock, capability: 'goal-loop' };
  return withUnitOfWork({ ...spec, lockTimeoutMs: context.lockTimeoutMs }, async (unit) => {
    // Everything the session writes, stage runners' artifacts included, goes through the lock's fenced writer.
    const { fs } = unit;
    const lateCostFolder = await containPendingCostFolder(fs, paths.runDir);
    // Of the iterations/ folders only the latest can hold a write a crash cut off.
    const latest = await latestIterationFolder(fs, paths.runDir);
    await unit.sweep(paths.runDir, ...(latest === null ? [] : [latest]), lateCostFolder);
    const gatherer = context.gathererFor(paths);
    const opened = await LoopSession.open(
      {
        fs,
        paths,
        lateCostFolder,
        runner: context.options.runner,
        clock: context.clock,
        signal: context.options.signal ?? new AbortController().signal,
        commit: unit.commit<LoopState, LoopEvent>({
          state: paths.state,
          schema: loopStateSchema,
          log: paths.events,
          onAppend: (event) => context.feed.publish(event),
        }),
        stages: context.options.stages,
        budgetUsd: context.options.budgetUsd,
        acceptGoalChange: context.options.acceptGoalChange ?? false,
        askJudges: context.options.askJudges ?? 'last',
        maxIterations: context.maxIterations,
        loadGoal: () => context.goals.load(paths.goal),
        gather: (goal, state) => gatherer.gather(goal.goal, state, { iteration: state.iteration, skipCommands: false }),
        stageTimeoutMs: (stage) => stageTimeout(context.options.stageTimeoutMs, stage),
        fence: unit.fence,
        heartbeat: unit.heartbeat,
        trace,
      },
      unit.takeover,
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
