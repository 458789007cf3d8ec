import { readLastEventSeq, readLatestIterationStarted } from '../persist/event-log.js';
import type { LockTakeover } from '../persist/run-lock.js';
import type { LoopState } from './contracts/loop-state.js';
import { initialState, lockTakenOver, openSession, resumed, type Transition } from './core/transitions.js';
import { commitTransition, type LoopContext } from './loop-context.js';
import { LoopDriver } from './loop-driver.js';
import type { LoopResult } from './loop-result.js';
import { loadLoopState, readRecordedSpend, writeRecordedSpend } from './state-store.js';

/** A driver for the session, or a stop that was decided but never reported (returned as it was). @internal */
export type PreparedSession = LoopDriver | (LoopResult & { readonly done: true });

/**
 * Loads or creates the run's record, delivers a pending outbox, logs a lock
 * takeover, then resumes the unfinished session or opens a new one. A stop
 * whose events were still undelivered (the caller never saw it) is returned
 * as it was decided instead of starting over.
 *
 * @internal
 */
export async function prepareSession(
  ctx: LoopContext,
  input: { readonly maxIterations: number; readonly takeover: LockTakeover | null },
): Promise<PreparedSession> {
  const { fs, paths } = ctx;
  let state = await loadLoopState(fs, paths.state);
  if (state === null) {
    const [goal, iteration, lastSeq, spent] = await Promise.all([
      ctx.loadGoal(),
      readLatestIterationStarted(fs, paths.events),
      readLastEventSeq(fs, paths.events),
      readRecordedSpend(fs, paths.metrics),
    ]);
    ctx.events.knowLastSeq(lastSeq);
    state = initialState({
      goalId: goal.goalId,
      goalHash: goal.hash,
      stages: ctx.stages,
      iteration: iteration ?? 0,
      spentUsd: spent,
      nextSeq: lastSeq + 1,
      ts: ctx.isoNow(),
    });
  } else {
    const delivered = await ctx.events.appendOnce(state.outbox);
    if (Math.abs((await readRecordedSpend(fs, paths.metrics)) - state.spent_usd) > 1e-6)
      await writeRecordedSpend(fs, paths.metrics, state.spent_usd);
    if (delivered > 0 && state.phase === 'stopped' && state.stop !== null) return savedStop(state, state.stop);
  }
  const commit = (transition: Transition): Promise<LoopState> => commitTransition(ctx, transition);
  if (input.takeover !== null)
    state = await commit(lockTakenOver(state, input.takeover.previousOwner, input.takeover.ageMs, ctx.isoNow()));
  if (state.session !== null && state.phase !== 'stopped') {
    state = await commit(resumed(state, ctx.isoNow()));
    return new LoopDriver(
      ctx,
      state,
      state.retry === null ? { kind: 'resume' } : { kind: 'resume', retry: state.retry },
    );
  }
  const goal = await ctx.loadGoal();
  state = openSession(state, {
    stages: ctx.stages,
    maxIterations: input.maxIterations,
    goalId: goal.goalId,
    goalHash: goal.hash,
    ts: ctx.isoNow(),
  });
  return new LoopDriver(ctx, state, null);
}

// The result of a stop already recorded in the run's state (only its summary is kept, not the evaluation).
function savedStop(state: LoopState, stop: NonNullable<LoopState['stop']>): LoopResult & { readonly done: true } {
  return {
    done: true,
    stoppedOn: stop.stopped_on,
    iterations: state.session?.iterations ?? 0,
    iteration: state.iteration,
    evaluation: null,
    reason: stop.reason,
    spentUsd: state.spent_usd,
  };
}
