import { describe, expect, it } from 'vitest';
import { isGoalLoopError } from '../../../src/errors.js';
import { STOP_REASONS, type StopReason } from '../../../src/goal/contracts/stop-reason.js';
import { errorEvaluation } from '../../../src/goal/core/evaluate.js';
import { formatResult } from '../../../src/goal/core/format-result.js';
import type { LoopResult } from '../../../src/goal/loop-result.js';

const evaluation = { ...errorEvaluation('notes-release', [], 2), status: 'PASS' as const, score: 100 };
const result = (stoppedOn: StopReason, reason = 'Why it stopped.'): LoopResult => ({
  stoppedOn,
  iterations: 2,
  iteration: 5,
  evaluation,
  reason,
  spentUsd: 0.05,
});

// The line of each stop (a Record, so a new stop reason fails to compile here).
const LINES: Readonly<Record<StopReason, string>> = {
  complete: 'complete (goal met) after 2 iteration(s), run-wide iteration 5, score 100, spent $0.05, exit 0',
  ask_user: 'ask_user (waiting for a human) after 2 iteration(s), run-wide iteration 5, score 100, spent $0.05, exit 4',
  blocked: 'blocked (blocked) after 2 iteration(s), run-wide iteration 5, score 100, spent $0.05, exit 3',
  max_iterations:
    'max_iterations (iteration bound reached) after 2 iteration(s), run-wide iteration 5, score 100, spent $0.05, exit 5',
  no_progress: 'no_progress (no progress) after 2 iteration(s), run-wide iteration 5, score 100, spent $0.05, exit 6',
  budget_exhausted:
    'budget_exhausted (budget spent) after 2 iteration(s), run-wide iteration 5, score 100, spent $0.05, exit 7',
  evaluation_error:
    'evaluation_error (goal could not be evaluated) after 2 iteration(s), run-wide iteration 5, score 100, spent $0.05, exit 8',
  aborted: 'aborted (aborted, resumable) after 2 iteration(s), run-wide iteration 5, score 100, spent $0.05, exit 130',
  dry_run: 'dry_run (dry run) after 2 iteration(s), run-wide iteration 5, score 100, spent $0.05, exit 0',
};

describe('formatResult', () => {
  it.each(STOP_REASONS)('prints one line for the stop %s, with its exit code and reason', (stop) => {
    expect(formatResult(result(stop))).toBe(`${LINES[stop]} — Why it stopped.`);
  });

  it('keeps a multi-line reason on one line, and says when nothing was evaluated', () => {
    const line = formatResult({ ...result('ask_user', 'Write a verdict:\n{\n  "iteration": 3\n}'), evaluation: null });
    expect(line).toBe(
      'ask_user (waiting for a human) after 2 iteration(s), run-wide iteration 5, not evaluated, spent $0.05, exit 4 — Write a verdict: { "iteration": 3 }',
    );
  });

  it('names the stages the next step reruns when a step goes on', () => {
    const { stoppedOn: _, ...rest } = result('complete', 'Criterion tests failed.');
    expect(formatResult({ ...rest, done: false, stoppedOn: null, rerunStages: ['08-testing'] })).toBe(
      'continuing after 2 iteration(s), run-wide iteration 5, score 100, spent $0.05; the next step reruns 08-testing — Criterion tests failed.',
    );
  });

  it('refuses a stop outside the union, naming result.stoppedOn on one line', () => {
    expect(() => formatResult(result('exploded' as StopReason))).toThrow(
      'formatResult(result): unknown result.stoppedOn "exploded"',
    );
    expect(() => formatResult({ stoppedOn: 'x\ny', reason: 'a\nb' } as unknown as LoopResult)).toThrow(
      'unknown result.stoppedOn "x y"',
    );
    expect(() => formatResult({} as LoopResult)).toThrow('formatResult(result): unknown result.stoppedOn undefined');
  });

  it.each([null, undefined, 'complete'])('refuses %j with INVALID_OPTIONS naming the argument', (value) => {
    const error = (() => {
      try {
        formatResult(value as unknown as LoopResult);
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(isGoalLoopError(error, 'INVALID_OPTIONS')).toBe(true);
    expect((error as Error).message).toMatch(/^formatResult\(result\): expected an object, got /);
  });

  it('prints ? for missing figures and flattens every text field', () => {
    const partial = { stoppedOn: 'aborted', evaluation: {}, reason: 'cut\u2028off\r\nhere' } as unknown as LoopResult;
    expect(formatResult(partial)).toBe(
      'aborted (aborted, resumable) after ? iteration(s), run-wide iteration ?, score ?, spent $?, exit 130 — cut off here',
    );
    const step = { ...result('complete'), stoppedOn: null, done: false as const, rerunStages: ['a\nb'] };
    expect(formatResult(step)).toMatch(/reruns a b — Why it stopped\.$/);
  });
});
