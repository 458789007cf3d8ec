import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GoalLoopError } from '../../src/errors.js';
import { GoalLoop } from '../../src/goal/goal-loop.js';
import type { GoalLoopOptions } from '../../src/goal/options.js';
import { noopTracer } from '../../src/ports/tracer.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { thrownRefusal } from '../kit/option-refusal.js';
import { allPass, harness, RUN } from './helpers.js';

// Every option GoalLoop knows: anything else is a misspelling and is refused.
const KNOWN = [
  'fs',
  'runDir',
  'stages',
  'runner',
  'commands',
  'goal',
  'maxIterations',
  'budgetUsd',
  'clock',
  'signal',
  'onEvent',
  'onListenerError',
  'tracer',
  'genAiAttributes',
  'concurrency',
  'acceptGoalChange',
  'feedbackStage',
  'lockTimeoutMs',
  'stageTimeoutMs',
];

const base = (): GoalLoopOptions => ({
  fs: createMemoryFileSystem(),
  runDir: '.goal-loop/runs/r-1',
  stages: ['a', 'b'],
  runner: { run: async () => ({ status: 'passed' }) },
});

// The GoalLoopError a construction throws (fails the test when it does not throw one).
function refusal(options: unknown): GoalLoopError {
  return thrownRefusal(() => new GoalLoop(options as GoalLoopOptions));
}

describe('GoalLoop options: unknown keys', () => {
  it.each([
    ['lockTimeoutMS', 'lockTimeoutMs'],
    ['maxIteration', 'maxIterations'],
    ['onListenerErorr', 'onListenerError'],
    ['stageTimeoutMS', 'stageTimeoutMs'],
    ['budgetUSD', 'budgetUsd'],
  ])('refuses %s, naming its path and suggesting %s', (key, suggestion) => {
    const error = refusal({ ...base(), [key]: 1 });
    expect(error.code).toBe('INVALID_OPTIONS');
    expect(error.issues).toEqual([
      {
        code: 'unrecognized_keys',
        path: [key],
        message: `unknown option \`${key}\`; did you mean \`${suggestion}\`?`,
      },
    ]);
    expect(error.message).toContain(`did you mean \`${suggestion}\`?`);
  });

  it('refuses a key close to no option without a suggestion, beside every wrong value', () => {
    const error = refusal({ ...base(), commandTimeoutMS: 5_000, maxIterations: 0 });
    expect(error.issues.map((issue) => issue.path)).toEqual([['commandTimeoutMS'], ['maxIterations']]);
    expect(error.issues[0]?.message).toBe('unknown option `commandTimeoutMS`');
    expect(error.message).toMatch(
      /^Invalid GoalLoop options: \$\.commandTimeoutMS: unknown option .*; \$\.maxIterations: /,
    );
  });

  it('refuses an unknown key even when its value is undefined (a spread of a misspelt option)', () => {
    expect(refusal({ ...base(), lockTimeoutMS: undefined }).issues[0]?.path).toEqual(['lockTimeoutMS']);
  });

  it('accepts every known option, functions and class instances included', () => {
    const controller = new AbortController();
    const options: GoalLoopOptions = {
      ...base(),
      commands: { run: () => Promise.reject(new Error('no command runs here')) },
      goal: { schema_version: 1, goal_id: 'g', criteria: [] },
      maxIterations: 2,
      budgetUsd: 1,
      clock: createManualClock(0),
      signal: controller.signal,
      onEvent: () => undefined,
      onListenerError: () => undefined,
      tracer: noopTracer,
      genAiAttributes: true,
      concurrency: 2,
      acceptGoalChange: true,
      feedbackStage: 'b',
      lockTimeoutMs: 1_000,
      stageTimeoutMs: { a: 1_000 },
    };
    expect(Object.keys(options).sort()).toEqual([...KNOWN].sort());
    expect(() => new GoalLoop(options)).not.toThrow();
  });

  it('refuses a feedbackStage that is not one of the stages, saying it must be one', () => {
    const error = refusal({ ...base(), feedbackStage: 'nope' });
    expect(error.code).toBe('INVALID_OPTIONS');
    expect(error.issues).toEqual([
      {
        code: 'unknown_stage',
        path: ['feedbackStage'],
        message: 'feedbackStage must be one of the stages (a, b); "nope" is not',
      },
    ]);
    expect(() => new GoalLoop({ ...base(), feedbackStage: 'a' })).not.toThrow();
    // Without the option, a pipeline without 11-feedback-loop simply has no feedback stage to rerun.
    expect(() => new GoalLoop(base())).not.toThrow();
  });

  it('refuses any options object with an extra key outside the known set (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((key) => !KNOWN.includes(key)),
        fc.anything(),
        (key, value) => {
          const options: Record<string, unknown> = { ...base() };
          Object.defineProperty(options, key, { value, enumerable: true });
          const error = refusal(options);
          expect(error.code).toBe('INVALID_OPTIONS');
          expect(error.issues).toContainEqual(expect.objectContaining({ code: 'unrecognized_keys', path: [key] }));
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('invalid options', () => {
  const base = (): GoalLoopOptions => ({ fs: harness().fs, runDir: RUN, stages: ['a'], runner: allPass() });
  it.each([
    ['stages', { stages: [] }],
    ['stages', { stages: ['a', 'a'] }],
    ['maxIterations', { maxIterations: 0 }],
    ['maxIterations', { maxIterations: 2.5 }],
    ['budgetUsd', { budgetUsd: -1 }],
    ['runDir', { runDir: '../x' }],
    ['runDir', { runDir: '/abs/run' }],
    ['runner', { runner: {} }],
    ['lockTimeoutMs', { lockTimeoutMs: 0 }],
  ])('rejects a bad %s with INVALID_OPTIONS naming it', (field, override) => {
    const make = () => new GoalLoop({ ...base(), ...(override as Partial<GoalLoopOptions>) });
    expect(make).toThrow(GoalLoopError);
    try {
      make();
    } catch (error) {
      expect(error).toMatchObject({ code: 'INVALID_OPTIONS' });
      expect((error as GoalLoopError).message).toContain(`${field}:`);
      expect((error as GoalLoopError).issues.map((issue) => issue.path[0])).toContain(field);
    }
  });
});
