import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StagedPipelineOptions } from '../../src/critics/options.js';
import { StagedPipeline } from '../../src/critics/staged-pipeline.js';
import type { GoalLoopError } from '../../src/errors.js';
import { noopTracer } from '../../src/ports/tracer.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { thrownRefusal } from '../kit/option-refusal.js';
import { critic, generator, type HostCall } from './helpers.js';

// Every option and every stage key StagedPipeline knows: anything else is a misspelling and is refused.
const KNOWN = [
  'fs',
  'dir',
  'stages',
  'maxBacktracks',
  'variant',
  'budgetUsd',
  'clock',
  'signal',
  'onEvent',
  'onListenerError',
  'tracer',
  'genAiAttributes',
  'lockTimeoutMs',
  'hostCallTimeoutMs',
];
const STAGE_KEYS = ['id', 'generate', 'critic', 'retryBudget', 'onBudgetSpent'];

const calls: HostCall[] = [];
const base = (): StagedPipelineOptions => ({
  fs: createMemoryFileSystem(),
  dir: '.goal-loop/critics',
  stages: [{ id: 'plan', generate: generator(calls), critic: critic(calls, () => ({ decision: 'accept' })) }],
});

// The GoalLoopError a construction throws (fails the test when it does not throw one).
function refusal(options: unknown): GoalLoopError {
  return thrownRefusal(() => new StagedPipeline(options as StagedPipelineOptions));
}

describe('StagedPipeline options: unknown keys', () => {
  it.each([
    ['lockTimeoutMS', 'lockTimeoutMs'],
    ['maxBacktrack', 'maxBacktracks'],
    ['onListenerErorr', 'onListenerError'],
    ['varient', 'variant'],
    ['budgetUSD', 'budgetUsd'],
    ['hostCallTimeoutMS', 'hostCallTimeoutMs'],
  ])('refuses %s, naming its path and suggesting %s', (key, suggestion) => {
    const error = refusal({ ...base(), [key]: 1 });
    expect(error.code).toBe('INVALID_OPTIONS');
    expect(error.issues).toEqual([
      { code: 'unrecognized_keys', path: [key], message: `unknown option \`${key}\`; did you mean \`${suggestion}\`?` },
    ]);
    expect(error.message).toContain(`did you mean \`${suggestion}\`?`);
  });

  it('refuses an unknown key of a stage definition, at its path under stages', () => {
    const [stage] = base().stages;
    const error = refusal({ ...base(), stages: [stage, { id: 'code', generate: generator(calls), retryBuget: 1 }] });
    expect(error.issues).toEqual([
      {
        code: 'unrecognized_keys',
        path: ['stages', 1, 'retryBuget'],
        message: 'unknown option `retryBuget`; did you mean `retryBudget`?',
      },
    ]);
    expect(error.message).toBe(
      'Invalid StagedPipeline options: $.stages[1].retryBuget: unknown option `retryBuget`; did you mean `retryBudget`?',
    );
  });

  it('refuses a missing filesystem, naming fs', () => {
    const { fs: _fs, ...rest } = base();
    expect(refusal(rest).issues.map((issue) => issue.path)).toEqual([['fs']]);
  });

  it('accepts every known option and stage key, functions and class instances included', () => {
    const options: StagedPipelineOptions = {
      ...base(),
      stages: [
        {
          id: 'plan',
          generate: generator(calls),
          critic: critic(calls, () => ({ decision: 'accept' })),
          retryBudget: 2,
          onBudgetSpent: 'escalate',
        },
      ],
      maxBacktracks: 1,
      variant: 'veto',
      budgetUsd: 1,
      clock: createManualClock(0),
      signal: new AbortController().signal,
      onEvent: () => undefined,
      onListenerError: () => undefined,
      tracer: noopTracer,
      genAiAttributes: true,
      lockTimeoutMs: 1_000,
      hostCallTimeoutMs: 5_000,
    };
    expect(Object.keys(options).sort()).toEqual([...KNOWN].sort());
    expect(Object.keys(options.stages[0] ?? {}).sort()).toEqual([...STAGE_KEYS].sort());
    expect(() => new StagedPipeline(options)).not.toThrow();
  });

  it('refuses any options object or stage with an extra key outside the known set (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((key) => !KNOWN.includes(key) && !STAGE_KEYS.includes(key)),
        fc.anything(),
        fc.boolean(),
        (key, value, inStage) => {
          const options = base();
          const target: Record<string, unknown> = inStage ? { ...options.stages[0] } : { ...options };
          Object.defineProperty(target, key, { value, enumerable: true });
          const error = refusal(inStage ? { ...options, stages: [target] } : target);
          expect(error.code).toBe('INVALID_OPTIONS');
          const path = inStage ? ['stages', 0, key] : [key];
          expect(error.issues).toContainEqual(expect.objectContaining({ code: 'unrecognized_keys', path }));
        },
      ),
      { numRuns: 200 },
    );
  });
});
