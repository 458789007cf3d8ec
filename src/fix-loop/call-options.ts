import { z } from 'zod';
import { optionShapeOf, refuseInvalidOptions, refuseOptions } from '../errors.js';
import type { FixCandidate } from './contracts/candidate.js';
import { parseFixCandidates } from './core/check-candidates.js';
import type { FixStepOptions, RunToCompletionOptions } from './step-result.js';

// A count or a time that may be unbounded: a non-negative number, `Infinity` included (zod's number refuses it).
const unbounded = (name: string, integer: boolean) =>
  z.custom<number>(
    (value) =>
      typeof value === 'number' &&
      value >= 0 &&
      (!integer || Number.isInteger(value) || value === Number.POSITIVE_INFINITY),
    {
      error: (issue) =>
        `${name} must be a non-negative ${integer ? 'integer' : 'number'} (got ${typeof issue.input === 'string' ? JSON.stringify(issue.input) : String(issue.input)})`,
    },
  );

// Every option has an entry (checked against RunToCompletionOptions), so a key outside it is a misspelling.
const callSignal = z.custom<AbortSignal>((value) => value instanceof AbortSignal, {
  message: 'signal must be an AbortSignal',
});

const runShape = optionShapeOf<RunToCompletionOptions>()({
  maxWallMs: unbounded('maxWallMs', false).optional(),
  signal: callSignal.optional(),
});

// The options of get(): how many audit entries to return (`Infinity`: all of them).
const getShape = {
  auditTail: unbounded('auditTail', true).optional(),
};

/** Checks `runToCompletion` options (`INVALID_OPTIONS`); the wall time, `Infinity` when none. @internal */
export function wallTimeOf(options: RunToCompletionOptions): number {
  refuseInvalidOptions('FixLoopOrchestrator.runToCompletion()', runShape, options);
  return options.maxWallMs ?? Number.POSITIVE_INFINITY;
}

/** Checks `get` options (`INVALID_OPTIONS`); how many audit entries to read (default 20). @internal */
export function auditTailOf(options: { readonly auditTail?: number }): number {
  refuseInvalidOptions('FixLoopOrchestrator.get()', getShape, options);
  return options.auditTail ?? 20;
}

// The options of step(): the caller's candidates, checked one by one after the key check.
const stepShape = optionShapeOf<FixStepOptions>()({
  candidates: z.unknown().optional(),
  signal: callSignal.optional(),
});

/** Checks `step` options (`INVALID_OPTIONS`); the caller's candidates, if any. @internal */
export function stepCandidatesOf(options: FixStepOptions): readonly FixCandidate[] | undefined {
  refuseInvalidOptions('FixLoopOrchestrator.step()', stepShape, options);
  if (options.candidates === undefined) return undefined;
  const parsed = parseFixCandidates(options.candidates);
  if (!parsed.success)
    refuseOptions(
      'FixLoopOrchestrator.step()',
      parsed.issues.map((issue) => ({ ...issue, path: ['candidates', ...issue.path] })),
    );
  return parsed.success ? parsed.data : undefined;
}
