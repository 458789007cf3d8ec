import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gitApplyCommand } from '../../../src/fix-loop/core/git-apply-command.js';

const GIT_ONLY = { git: 1, plain: 0 };

describe('gitApplyCommand', () => {
  it('passes the patch through the environment in chunks the command prints back in order, never splitting a character', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 70_000 }), (patch) => {
        const apply = gitApplyCommand(patch, '', GIT_ONLY);
        if (apply === null) throw new Error('refused');
        const names = Object.keys(apply.env).filter((name) => name.startsWith('GOAL_LOOP_PATCH_'));
        expect(names).toEqual(names.map((_, index) => `GOAL_LOOP_PATCH_${index}`));
        const chunks = names.map((name) => apply.env[name] ?? '');
        expect(chunks.join('')).toBe(patch);
        // No chunk ends on the first half of a surrogate pair.
        for (const chunk of chunks) expect(/[\uD800-\uDBFF]$/.test(chunk)).toBe(false);
        expect(apply.command).toBe(`printf '%s' ${names.map((name) => `"$${name}"`).join(' ')} | git apply --verbose`);
      }),
      { numRuns: 40 },
    );
  });

  it('keeps a surrogate pair whole at a chunk boundary', () => {
    const patch = `${'a'.repeat(32_767)}😀${'b'.repeat(10)}`;
    const env = gitApplyCommand(patch, '', GIT_ONLY)?.env ?? {};
    const chunks = [env.GOAL_LOOP_PATCH_0, env.GOAL_LOOP_PATCH_1];
    expect(chunks[0]).toBe('a'.repeat(32_767));
    expect(chunks[1]?.startsWith('😀')).toBe(true);
  });

  it('below a repository top, reads `diff --git` paths from the workspace (quoted for the shell); plain ones need no folder; both styles are refused', () => {
    expect(gitApplyCommand('x', "it's/app/", GIT_ONLY)?.command).toMatch(/--directory='it'\\''s\/app\/'$/);
    expect(gitApplyCommand('x', 'app/', { git: 0, plain: 2 })?.command).toMatch(/--verbose$/);
    expect(gitApplyCommand('x', 'app/', { git: 1, plain: 1 })).toBeNull();
    expect(gitApplyCommand('x', '', { git: 1, plain: 1 })?.command).toMatch(/--verbose$/);
  });
});
