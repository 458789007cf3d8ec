import type { EventLog } from '../persist/event-log.js';
import type { RunPaths } from '../pipeline/run-paths.js';
import { stageOutcomeStatusSchema } from '../pipeline/stage-status.js';
import type { Clock } from '../ports/clock.js';
import type { FileSystem } from '../ports/file-system.js';
import type { StageOutcome, StageRunner } from '../ports/stage-runner.js';
import type { Goal } from './contracts/goal.js';
import type { LoopState } from './contracts/loop-state.js';
import type { EvaluationFacts } from './core/facts.js';
import type { Transition } from './core/transitions.js';
import type { LoadedGoal } from './goal-source.js';

/**
 * What a {@link LoopDriver} needs from the loop that owns it: the ports, the
 * run's paths, and the few effects it asks for by name.
 *
 * @internal
 */
export interface LoopContext {
  readonly fs: FileSystem;
  readonly paths: RunPaths;
  readonly stages: readonly string[];
  readonly runner: StageRunner;
  readonly clock: Clock;
  readonly signal: AbortSignal | undefined;
  readonly events: EventLog;
  readonly budgetUsd: number | undefined;
  readonly acceptGoalChange: boolean;
  isoNow(): string;
  saveState(state: LoopState): Promise<void>;
  loadGoal(): Promise<LoadedGoal>;
  gather(goal: Goal, state: LoopState): Promise<EvaluationFacts>;
  withHeartbeat<T>(work: () => Promise<T>): Promise<T>;
}

/**
 * Persists a transition: the state first (its events in the outbox), then the
 * events, each appended once. A crash between the two loses nothing: the next
 * run delivers the outbox.
 *
 * @internal
 */
export async function commitTransition(ctx: LoopContext, transition: Transition): Promise<LoopState> {
  await ctx.saveState(transition.state);
  await ctx.events.appendOnce(transition.events);
  return transition.state;
}

const OUTCOME_STATUSES: ReadonlySet<string> = new Set(stageOutcomeStatusSchema.options);

/**
 * Checks what a host's stage runner returned; a wrong shape becomes a failed
 * stage whose detail names the field (never a silent pass).
 *
 * @internal
 */
export function checkStageOutcome(stage: string, outcome: unknown): StageOutcome {
  const value = outcome as Partial<StageOutcome> | null | undefined;
  const problems: string[] = [];
  if (typeof value !== 'object' || value === null) problems.push('the outcome must be an object');
  else {
    if (typeof value.status !== 'string' || !OUTCOME_STATUSES.has(value.status))
      problems.push(`status must be one of ${[...OUTCOME_STATUSES].join(', ')} (got ${JSON.stringify(value.status)})`);
    if (
      value.costUsd !== undefined &&
      (typeof value.costUsd !== 'number' || !Number.isFinite(value.costUsd) || value.costUsd < 0)
    )
      problems.push(`costUsd must be a finite number ≥ 0 (got ${JSON.stringify(value.costUsd)})`);
    if (value.detail !== undefined && typeof value.detail !== 'string') problems.push('detail must be a string');
  }
  if (problems.length === 0) return value as StageOutcome;
  const cost =
    typeof value?.costUsd === 'number' && Number.isFinite(value.costUsd) && value.costUsd > 0
      ? { costUsd: value.costUsd }
      : {};
  return {
    status: 'failed',
    ...cost,
    detail: `The stage runner for ${stage} returned an invalid outcome: ${problems.join('; ')}.`,
  };
}
