import { GoalLoopError } from '../errors.js';
import type { LoopState } from './contracts/loop-state.js';
import type { MachineConfig } from './core/loop-io.js';
import { initialState, lockTakenOver, openSession, resumed, type TakenOverLock } from './core/session-transitions.js';
import type { LoadedGoal } from './goal-source.js';
import { readIterationEvaluation, readLatestIterationStarted } from './loop-events.js';
import type { LoopStepResult } from './loop-result.js';
import { readRstackStageStatuses } from './rstack-state.js';
import type { IfStopped } from './run-options.js';
import type { SessionDeps } from './session-deps.js';
import { raiseRecordedSpend, readRecordedSpend } from './spend.js';

// Opening a session: the record of a fresh run, a stop found already decided, the checks of a saved record.

/** What opening a run gives: the record and settings of the session to drive, or a stop recorded earlier. @internal */
export type OpenedRecord =
  | { readonly kind: 'open'; readonly state: LoopState; readonly goal: LoadedGoal; readonly config: MachineConfig }
  | { readonly kind: 'stopped'; readonly result: LoopStepResult };

/** Loads or creates the record, delivers a pending outbox, then resumes or opens a session, or returns a stop. @internal */
export async function openRecord(
  deps: SessionDeps,
  takeover: TakenOverLock | null,
  ifStopped: IfStopped,
): Promise<OpenedRecord> {
  const { fs, paths, commit } = deps;
  const iso = (): string => new Date(deps.clock.now()).toISOString();
  const [saved, goal] = await Promise.all([commit.store.load(), deps.loadGoal()]);
  let state = saved ?? (await freshState(deps, goal, iso()));
  if (saved !== null) {
    await checkSaved(saved, deps);
    const delivered = await commit.deliver(saved);
    // A crash after the state's commit but before metrics.json caught up: raise it (never lower it).
    await raiseRecordedSpend(fs, paths.metrics, saved.spent_usd);
    if (saved.phase === 'stopped' && saved.stop !== null && (delivered > 0 || ifStopped === 'return-stop')) {
      // A takeover is always logged, also before returning a stop recorded earlier (reported or not).
      if (takeover !== null) await commit.commit(lockTakenOver(saved, takeover, iso()).state);
      return { kind: 'stopped', result: await savedStop(deps, saved, saved.stop) };
    }
  }
  if (takeover !== null) state = await commit.commit(lockTakenOver(state, takeover, iso()).state);
  const resuming = state.session !== null && state.phase !== 'stopped';
  if (resuming) state = await commit.commit(resumed(state, iso()).state);
  else {
    state = openSession(state, {
      stages: deps.stages,
      maxIterations: deps.maxIterations,
      goalId: goal.goalId,
      goalHash: goal.hash,
      ts: iso(),
    });
  }
  const config: MachineConfig = {
    stages: deps.stages,
    budgetUsd: deps.budgetUsd,
    acceptGoalChange: deps.acceptGoalChange,
    resumedIteration: resuming && state.phase === 'running_stages' ? state.iteration : null,
  };
  return { kind: 'open', state, goal, config };
}

/** A fresh record continuing the log's iteration count, the spend and stages another tool recorded passed. @internal */
async function freshState(deps: SessionDeps, goal: LoadedGoal, ts: string): Promise<LoopState> {
  const [iteration, lastSeq, spent, recorded] = await Promise.all([
    readLatestIterationStarted(deps.fs, deps.paths.events),
    deps.commit.log.lastSequence(),
    readRecordedSpend(deps.fs, deps.paths.metrics),
    readRstackStageStatuses(deps.fs, deps.paths, deps.stages),
  ]);
  return initialState({
    goalId: goal.goalId,
    goalHash: goal.hash,
    stages: deps.stages,
    passed: new Set(Object.keys(recorded).filter((stage) => recorded[stage] === 'passed')),
    iteration: iteration ?? 0,
    spentUsd: spent,
    nextSeq: lastSeq + 1,
    ts,
  });
}

/** A recorded stop's result as first returned, its evaluation read back when evaluated in that session. @internal */
async function savedStop(
  deps: Pick<SessionDeps, 'fs' | 'paths'>,
  state: LoopState,
  stop: NonNullable<LoopState['stop']>,
): Promise<LoopStepResult> {
  const inSession = state.session !== null && stop.iteration > state.session.started_at_iteration;
  const evaluation = inSession ? await readIterationEvaluation(deps.fs, deps.paths.runDir, stop.iteration) : null;
  return {
    done: true,
    stoppedOn: stop.stopped_on,
    iterations: state.session?.iterations ?? 0,
    iteration: state.iteration,
    evaluation,
    reason: stop.reason,
    spentUsd: state.spent_usd,
  };
}

/** What loop-state.json says must agree with the pipeline and the log; a hand edit that does not is named, never run. @internal */
async function checkSaved(state: LoopState, deps: SessionDeps): Promise<void> {
  const file = deps.paths.state;
  const unknown = state.iteration_stages.findIndex((stage) => !deps.stages.includes(stage));
  if (unknown >= 0) {
    const stage = state.iteration_stages[unknown];
    throw corrupt(`${file}: iteration_stages[${unknown}] is "${stage}", which is not a stage of this pipeline`, [
      'iteration_stages',
      unknown,
    ]);
  }
  const lastSeq = await deps.commit.log.lastSequence();
  const pending = state.outbox[0]?.seq ?? state.next_seq;
  if (lastSeq >= pending && lastSeq >= state.next_seq) {
    throw corrupt(
      `${file}: next_seq is ${state.next_seq}, but ${deps.paths.events} already holds seq ${lastSeq}; new events would be dropped as already delivered`,
      ['next_seq'],
    );
  }
}

// A STATE_CORRUPT error naming the field.
function corrupt(message: string, path: (string | number)[]): GoalLoopError {
  return new GoalLoopError('STATE_CORRUPT', `${message}. Move loop-state.json aside to start the loop afresh.`, {
    issues: [{ code: 'state_mismatch', path, message }],
  });
}
