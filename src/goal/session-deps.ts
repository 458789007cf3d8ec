import type { RunPaths } from '../pipeline/run-paths.js';
import type { Clock } from '../ports/clock.js';
import type { FileSystem } from '../ports/file-system.js';
import type { OutboxCommit } from '../runtime/outbox.js';
import type { LoopEvent } from './contracts/events.js';
import type { LoopState } from './contracts/loop-state.js';
import type { EvaluationFacts } from './core/facts.js';
import type { AskJudges } from './core/precedence.js';
import type { LoadedGoal } from './goal-source.js';
import type { LoopTrace } from './loop-trace.js';
import type { StageRunner } from './stage-runner.js';

/** Everything a session works with: the ports, the run's files, and the loop's settings. @internal */
export interface SessionDeps {
  readonly fs: FileSystem;
  readonly paths: RunPaths;
  /** The run's pending late costs folder (`spend-pending`), contained. */
  readonly lateCostFolder: string;
  readonly runner: StageRunner;
  readonly clock: Clock;
  readonly signal: AbortSignal;
  readonly commit: OutboxCommit<LoopState, LoopEvent>;
  readonly stages: readonly string[];
  readonly budgetUsd: number | undefined;
  readonly acceptGoalChange: boolean;
  /** When a judge without a fresh verdict asks a human. */
  readonly askJudges: AskJudges;
  readonly maxIterations: { readonly value: number; readonly requested?: number };
  /** Loads the goal (parsed again only when it changed). */
  readonly loadGoal: () => Promise<LoadedGoal>;
  /** Gathers the evaluation's facts for the run's record at this moment. */
  readonly gather: (goal: LoadedGoal & { ok: true }, state: LoopState) => Promise<EvaluationFacts>;
  /** The time limit of a stage (none when undefined). */
  readonly stageTimeoutMs: (stage: string) => number | undefined;
  /** Checks this loop still holds the run's lock; called before every write (RUN_LOCKED when it lost it). */
  readonly fence: () => Promise<void>;
  /** Keeps the run's lock fresh while `work` runs (a stage, an evaluation). */
  readonly heartbeat: <T>(work: (lost: AbortSignal) => Promise<T>) => Promise<T>;
  /** The session's spans (no-op without a tracer). */
  readonly trace: LoopTrace;
}
