import { describe, expect, it } from 'vitest';
import { STOP_REASONS } from '../../../src/goal/contracts/stop-reason.js';
import { checkBudget, type DecideInput, decideAfterEvaluation } from '../../../src/goal/core/decide.js';
import type { EvaluationStatus } from '../../../src/goal/core/evaluate.js';
import { EXIT_CODES, exitCodeFor } from '../../../src/goal/core/exit-code.js';
import {
  clampMaxIterations,
  DEFAULT_MAX_ITERATIONS,
  MAX_ITERATIONS_HARD_CAP,
} from '../../../src/goal/core/max-iterations.js';

// A decision input for a RETRY naming 07-code, first iteration, no budget.
function input(overrides: Partial<DecideInput> & { status?: EvaluationStatus; stages?: string[] } = {}): DecideInput {
  const { status = 'RETRY', stages = ['07-code'], ...rest } = overrides;
  return {
    evaluation: { status, reason: `Goal says ${status}.`, recommendedRerunStages: stages },
    spentUsd: 0,
    iterationsInSession: 1,
    maxIterations: 3,
    fingerprint: 'b',
    previousFingerprint: 'a',
    ...rest,
  };
}

describe('decideAfterEvaluation', () => {
  it('retries the named stages', () => {
    expect(decideAfterEvaluation(input())).toEqual({ kind: 'retry', stages: ['07-code'], reason: 'Goal says RETRY.' });
    expect(decideAfterEvaluation(input({ previousFingerprint: null })).kind).toBe('retry');
    expect(decideAfterEvaluation(input({ previousFingerprint: undefined })).kind).toBe('retry');
  });

  it.each([
    ['PASS', 'complete'],
    ['ASK_USER', 'ask_user'],
    ['BLOCK', 'blocked'],
    ['ERROR', 'evaluation_error'],
  ] as const)('maps %s to %s', (status, stoppedOn) => {
    expect(decideAfterEvaluation(input({ status }))).toEqual({
      kind: 'stop',
      stoppedOn,
      reason: `Goal says ${status}.`,
    });
  });

  it('checks the budget first, even before PASS', () => {
    expect(decideAfterEvaluation(input({ status: 'PASS', spentUsd: 5, budgetUsd: 5 }))).toMatchObject({
      kind: 'stop',
      stoppedOn: 'budget_exhausted',
    });
    expect(decideAfterEvaluation(input({ status: 'PASS', spentUsd: 4.99, budgetUsd: 5 }))).toMatchObject({
      stoppedOn: 'complete',
    });
    expect(decideAfterEvaluation(input({ spentUsd: 4.99, budgetUsd: 5 })).kind).toBe('retry');
  });

  it('stops at max_iterations before looking at progress', () => {
    expect(
      decideAfterEvaluation(input({ iterationsInSession: 3, fingerprint: 'a', previousFingerprint: 'a' })),
    ).toMatchObject({ stoppedOn: 'max_iterations' });
    expect(decideAfterEvaluation(input({ iterationsInSession: 2 })).kind).toBe('retry');
  });

  it('never exceeds the hard cap of 20 whatever maxIterations says', () => {
    expect(decideAfterEvaluation(input({ iterationsInSession: 20, maxIterations: 50 }))).toMatchObject({
      stoppedOn: 'max_iterations',
    });
    expect(decideAfterEvaluation(input({ iterationsInSession: 19, maxIterations: 50 })).kind).toBe('retry');
    expect(
      decideAfterEvaluation(input({ iterationsInSession: 21, maxIterations: Number.POSITIVE_INFINITY })),
    ).toMatchObject({ stoppedOn: 'max_iterations' });
  });

  it('stops no_progress on an unchanged fingerprint, then on nothing to rerun', () => {
    expect(decideAfterEvaluation(input({ fingerprint: 'a', previousFingerprint: 'a' }))).toMatchObject({
      stoppedOn: 'no_progress',
      reason: expect.stringContaining('changed nothing'),
    });
    expect(decideAfterEvaluation(input({ stages: [] }))).toMatchObject({
      stoppedOn: 'no_progress',
      reason: expect.stringContaining('no stage is named'),
    });
  });
});

describe('checkBudget', () => {
  it('is null without a budget or below it', () => {
    expect(checkBudget(100)).toBeNull();
    expect(checkBudget(1, 2)).toBeNull();
  });

  it('stops when spent reaches the budget', () => {
    expect(checkBudget(2, 2)).toEqual({
      kind: 'stop',
      stoppedOn: 'budget_exhausted',
      reason: 'The run has spent 2.00 USD of its 2.00 USD budget.',
    });
    expect(checkBudget(0, 0)?.stoppedOn).toBe('budget_exhausted');
    expect(checkBudget(0.004, 0.003)?.reason).toBe('The run has spent 0.004 USD of its 0.003 USD budget.');
  });

  it('shows amounts as kept, so a budget never reads as more or less than it is', () => {
    expect(checkBudget(0.02, 0.015)?.reason).toBe('The run has spent 0.02 USD of its 0.015 USD budget.');
    expect(checkBudget(2, 1.999)?.reason).toBe('The run has spent 2.00 USD of its 1.999 USD budget.');
    expect(checkBudget(1 / 3, 0.25)?.reason).toBe('The run has spent 0.333333333 USD of its 0.25 USD budget.');
    expect(checkBudget(12.5, 10)?.reason).toBe('The run has spent 12.50 USD of its 10.00 USD budget.');
  });
});

describe('clampMaxIterations', () => {
  it('defaults to 3 and keeps valid values', () => {
    expect(clampMaxIterations()).toEqual({ success: true, data: DEFAULT_MAX_ITERATIONS, issues: [] });
    expect(clampMaxIterations(1)).toEqual({ success: true, data: 1, issues: [] });
    expect(clampMaxIterations(20)).toEqual({ success: true, data: 20, issues: [] });
  });

  it('clamps to the hard cap of 20 with an issue saying so', () => {
    expect(clampMaxIterations(50)).toMatchObject({
      success: true,
      data: MAX_ITERATIONS_HARD_CAP,
      issues: [{ code: 'clamped', path: ['maxIterations'] }],
    });
  });

  it.each([[0], [-1], [2.5], [Number.NaN], [Number.POSITIVE_INFINITY], ['5'], [null]])(
    'rejects %j instead of defaulting',
    (value) => {
      expect(clampMaxIterations(value)).toMatchObject({
        success: false,
        issues: [{ code: 'invalid_max_iterations', path: ['maxIterations'] }],
      });
    },
  );
});

describe('exitCodeFor', () => {
  it('is 0 only for complete and dry_run', () => {
    for (const stoppedOn of STOP_REASONS) {
      expect(exitCodeFor({ stoppedOn }) === 0).toBe(stoppedOn === 'complete' || stoppedOn === 'dry_run');
    }
  });

  it('gives every other reason its own documented code', () => {
    const nonZero = STOP_REASONS.filter((reason) => EXIT_CODES[reason] !== 0).map((reason) =>
      exitCodeFor({ stoppedOn: reason }),
    );
    expect(new Set(nonZero).size).toBe(nonZero.length);
    expect(EXIT_CODES).toEqual({
      complete: 0,
      dry_run: 0,
      blocked: 3,
      ask_user: 4,
      max_iterations: 5,
      no_progress: 6,
      budget_exhausted: 7,
      evaluation_error: 8,
      aborted: 130,
    });
  });
});
