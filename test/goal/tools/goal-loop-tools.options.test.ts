import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGoalLoopTools, type GoalLoopError, type GoalLoopToolsOptions } from '../../../src/index.js';
import { createFakeCommandRunner, createMemoryFileSystem } from '../../../src/testing.js';
import { thrownRefusal } from '../../kit/option-refusal.js';

// Every option createGoalLoopTools knows: anything else is a misspelling and is refused when the tools are made.
const KNOWN = ['fs', 'commands', 'stages', 'feedbackStage', 'verdictSources'];

// The GoalLoopError creating the tools throws (fails the test when it does not throw one).
function refusal(options: unknown): GoalLoopError {
  return thrownRefusal(() => createGoalLoopTools(options as GoalLoopToolsOptions));
}

describe('createGoalLoopTools options', () => {
  it.each([
    ['verdictSource', 'verdictSources'],
    ['VerdictSources', 'verdictSources'],
    ['stage', 'stages'],
    ['feedbackStages', 'feedbackStage'],
    ['command', 'commands'],
  ])('refuses %s, naming its path and suggesting %s', (key, suggestion) => {
    const error = refusal({ fs: createMemoryFileSystem(), [key]: ['agent'] });
    expect(error.code).toBe('INVALID_OPTIONS');
    expect(error.issues).toEqual([
      { code: 'unrecognized_keys', path: [key], message: `unknown option \`${key}\`; did you mean \`${suggestion}\`?` },
    ]);
    expect(error.message).toContain(`$.${key}: unknown option`);
  });

  it('refuses wrong values when the tools are made, each at its path', () => {
    const error = refusal({ fs: createMemoryFileSystem(), verdictSources: ['robot'], stages: [], feedbackStage: '' });
    expect(error.issues.map((issue) => issue.path)).toEqual([['stages'], ['feedbackStage'], ['verdictSources', 0]]);
    expect(refusal({}).issues.map((issue) => issue.path)).toEqual([['fs']]);
  });

  it('refuses an fs that lacks the methods the tools call, and a feedbackStage outside the given stages', () => {
    for (const fs of [{}, { readText: () => null }, 'fs']) {
      const error = refusal({ fs });
      expect(error.issues.map((issue) => issue.path)).toEqual([['fs']]);
      expect(error.issues[0]?.message).toContain('fs must be a FileSystem (implement readText, readBytes');
    }
    expect(refusal({ fs: createMemoryFileSystem(), stages: ['a', 'b'], feedbackStage: 'nope' }).issues).toEqual([
      {
        code: 'unknown_stage',
        path: ['feedbackStage'],
        message: 'feedbackStage must be one of the stages (a, b); "nope" is not',
      },
    ]);
    // Without `stages`, each run's own stages decide (a run without the feedback stage evaluates without one).
    expect(createGoalLoopTools({ fs: createMemoryFileSystem(), feedbackStage: 'review' })).toHaveLength(3);
  });

  it('accepts every known option, a command runner included', () => {
    const options: GoalLoopToolsOptions = {
      fs: createMemoryFileSystem(),
      commands: createFakeCommandRunner({}),
      stages: ['a', 'b'],
      feedbackStage: 'b',
      verdictSources: ['agent'],
    };
    expect(Object.keys(options).sort()).toEqual([...KNOWN].sort());
    expect(createGoalLoopTools(options).map((tool) => tool.name)).toEqual([
      'evaluate_goal',
      'submit_verdict',
      'loop_status',
    ]);
  });

  it('refuses any options object with an extra key outside the known set (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((key) => !KNOWN.includes(key)),
        fc.anything(),
        (key, value) => {
          const options: Record<string, unknown> = { fs: createMemoryFileSystem() };
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
