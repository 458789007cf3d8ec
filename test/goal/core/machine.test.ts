import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LoopState } from '../../../src/goal/contracts/loop-state.js';
import { errorEvaluation, type GoalEvaluation } from '../../../src/goal/core/evaluate.js';
import type { LoopInput, LoopStep, MachineConfig } from '../../../src/goal/core/loop-io.js';
import { transition } from '../../../src/goal/core/machine.js';
import { initialState, openSession } from '../../../src/goal/core/session-transitions.js';

// The pure transition at the evaluation: an abort observed when the evaluation came back is decided by the stop rules
// like any other abort, so the evaluation is neither recorded nor decided on, and the iteration stays at its
// evaluation (a resumed session makes it again without counting the iteration twice).

const STAGES = ['a', 'b'];
const TS = '2025-01-01T00:00:00.000Z';
const GOAL = { goalId: 'g', hash: 'h', issues: null };
const config = (budgetUsd?: number): MachineConfig => ({
  stages: STAGES,
  budgetUsd,
  acceptGoalChange: false,
  resumedIteration: null,
});
const observed = { aborted: false, spentUsd: 0, ts: TS };

// The record of a session (bound `maxIterations`) whose first iteration ran its stages and awaits its evaluation.
function atEvaluation(maxIterations: number): LoopState {
  const fresh = initialState({
    goalId: 'g',
    goalHash: 'h',
    stages: STAGES,
    iteration: 0,
    spentUsd: 0,
    nextSeq: 1,
    ts: TS,
  });
  let state = openSession(fresh, {
    stages: STAGES,
    maxIterations: { value: maxIterations },
    goalId: 'g',
    goalHash: 'h',
    ts: TS,
  });
  let input: LoopInput = { ...observed, type: 'checkpoint', goal: GOAL };
  for (;;) {
    const step: LoopStep = transition(state, input, config());
    state = step.state;
    if (step.effect.kind === 'evaluate') return state;
    if (step.effect.kind === 'run_stage') {
      const outcome = { status: 'passed' as const, costUsd: 1 };
      input = { ...observed, type: 'stage_finished', stage: step.effect.stage, outcome, durationMs: 1 };
    } else if (step.effect.kind === 'load_goal') input = { ...observed, type: 'checkpoint', goal: GOAL };
    else throw new Error(`unexpected effect ${step.effect.kind}`);
  }
}

// An evaluation with this status (a RETRY names stage b).
function evaluationOf(status: GoalEvaluation['status']): GoalEvaluation {
  return {
    ...errorEvaluation('g', [], 1),
    status,
    score: 50,
    reason: `it is ${status}`,
    recommendedRerunStages: status === 'RETRY' ? ['b'] : [],
  };
}

const statuses = fc.constantFrom<GoalEvaluation['status']>('PASS', 'RETRY', 'ASK_USER', 'BLOCK', 'ERROR');

describe('the transition after an evaluation', () => {
  it('records the evaluation and decides on it when no abort was observed', () => {
    const state = atEvaluation(1);
    const evaluation = evaluationOf('RETRY');
    const step = transition(state, { ...observed, spentUsd: 2, type: 'evaluated', evaluation }, config());
    expect(step.evaluation).toBe(evaluation);
    expect(step.effect).toMatchObject({ kind: 'stop', stoppedOn: 'max_iterations' });
    expect(step.events.map((event) => event.type)).toEqual(['goal_evaluated', 'loop_blocked']);
  });

  it('an abort observed with any evaluation, bound and budget stops aborted, resumable, recording nothing of it', () => {
    fc.assert(
      fc.property(
        statuses,
        fc.integer({ min: 1, max: 20 }),
        fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
        (status, maxIterations, budgetUsd) => {
          const state = atEvaluation(maxIterations);
          const input: LoopInput = {
            ...observed,
            aborted: true,
            spentUsd: 2,
            type: 'evaluated',
            evaluation: evaluationOf(status),
          };
          const step = transition(state, input, config(budgetUsd));
          expect(step.effect).toEqual({
            kind: 'stop',
            stoppedOn: 'aborted',
            reason: 'Aborted by the caller during the evaluation.',
          });
          expect(step.evaluation).toBeUndefined();
          expect(step.events.map((event) => event.type)).toEqual(['loop_blocked']);
          expect(step.state).toMatchObject({
            phase: 'evaluating',
            stop: null,
            iteration: 1,
            last_evaluation: null,
            last_fingerprint: null,
            retry: null,
            stage_status: state.stage_status,
          });
          expect(step.state.session?.iterations).toBe(1);

          // The next checkpoint (a resumed session) goes straight back to the evaluation of the same iteration.
          const resumed = transition(
            step.state,
            { ...observed, spentUsd: 2, type: 'checkpoint', goal: GOAL },
            config(),
          );
          expect(resumed.effect).toEqual({ kind: 'evaluate' });
          expect(resumed.state.iteration).toBe(1);
          expect(resumed.state.session?.iterations).toBe(1);
        },
      ),
    );
  });
});
