import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GoalLoopError } from '../../../src/errors.js';
import { createFixLoopTools } from '../../../src/fix-loop/tools/fix-loop-tools.js';
import type { FixLoopToolsOptions, FixLoopToolsOrchestrator } from '../../../src/fix-loop/tools/options.js';
import { thrownRefusal } from '../../kit/option-refusal.js';

// Creating the tools calls no orchestrator method: a stand-in that fails any call is enough here.
const refuse = () => Promise.reject(new Error('no session call happens while the tools are made'));
const orchestrator: FixLoopToolsOrchestrator = { start: refuse, step: refuse, runToCompletion: refuse, get: refuse };
const KNOWN = ['maxWallSeconds'];

// The GoalLoopError creating the tools with `options` throws.
function refusal(options: unknown): GoalLoopError {
  return thrownRefusal(() => createFixLoopTools(orchestrator, options as FixLoopToolsOptions));
}

describe('createFixLoopTools options', () => {
  it.each([
    ['maxWallSecond', 'maxWallSeconds'],
    ['maxWalSeconds', 'maxWallSeconds'],
    ['MaxWallSeconds', 'maxWallSeconds'],
  ])('refuses %s, naming its path and suggesting %s', (key, suggestion) => {
    const error = refusal({ [key]: 30 });
    expect(error.code).toBe('INVALID_OPTIONS');
    expect(error.issues).toEqual([
      { code: 'unrecognized_keys', path: [key], message: `unknown option \`${key}\`; did you mean \`${suggestion}\`?` },
    ]);
  });

  it('refuses a key close to no option without a suggestion (a wall time in ms belongs to runToCompletion)', () => {
    expect(refusal({ maxWallMs: 30_000 }).issues).toEqual([
      { code: 'unrecognized_keys', path: ['maxWallMs'], message: 'unknown option `maxWallMs`' },
    ]);
  });

  it('refuses a maxWallSeconds that is not a positive number, at its path', () => {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '30']) {
      expect(refusal({ maxWallSeconds: bad }).issues.map((issue) => issue.path)).toEqual([['maxWallSeconds']]);
    }
  });

  it('refuses an orchestrator that lacks a method the tools call, naming it, beside every option issue', () => {
    const made = (value: unknown, options: unknown = {}) =>
      thrownRefusal(() => createFixLoopTools(value as FixLoopToolsOrchestrator, options as FixLoopToolsOptions));
    const empty = made({});
    expect(empty).toMatchObject({
      code: 'INVALID_OPTIONS',
      issues: [{ code: 'invalid_type', path: ['orchestrator'] }],
    });
    expect(empty.message).toContain('it lacks start, step, runToCompletion, get');
    for (const value of [undefined, null, 'fixer', { ...orchestrator, get: 'nope' }]) {
      expect(made(value).issues.map((issue) => issue.path)).toEqual([['orchestrator']]);
    }
    const both = made({ start: refuse }, { maxWallSecs: 1 });
    expect(both.issues.map((issue) => issue.path)).toEqual([['orchestrator'], ['maxWallSecs']]);
    expect(both.issues[0]?.message).toContain('it lacks step, runToCompletion, get');
  });

  it('accepts no options, empty options and every known option', () => {
    expect(createFixLoopTools(orchestrator)).toHaveLength(4);
    expect(createFixLoopTools(orchestrator, {})).toHaveLength(4);
    const [, , run] = createFixLoopTools(orchestrator, { maxWallSeconds: 50 });
    expect(run.description).toContain('at most 50 seconds');
  });

  it('refuses any options object with an extra key outside the known set (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((key) => !KNOWN.includes(key)),
        fc.anything(),
        fc.boolean(),
        (key, value, withKnown) => {
          const options: Record<string, unknown> = withKnown ? { maxWallSeconds: 10 } : {};
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
