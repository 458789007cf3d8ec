import { describe, expect, it } from 'vitest';
import { createGitPatchApplier } from '../../src/fix-loop/git-patch-applier.js';
import { createFakeCommandRunner } from '../../src/testing/fake-command-runner.js';
import { candidate, signal } from './patch-candidate.js';

// The git commands the applier runs, and how it reads their answers, on a fake command runner.

// The applier's question whether the patch names a symlink of the workspace.
const NO_SYMLINKS = /\[ -L "\$f" \]/;
// The applier's record of what the touched paths hold before it applies (a hash of their states).
const FINGERPRINT = { match: /git hash-object --stdin$/, respond: { exitCode: 0, stdoutTail: `${'a'.repeat(40)}\n` } };

describe('createGitPatchApplier on a fake runner', () => {
  it('asks git where the workspace lies, then runs git apply --check and git apply there, patch in the environment', async () => {
    const commands = createFakeCommandRunner([
      FINGERPRINT,
      { match: 'git rev-parse --show-prefix', respond: { exitCode: 0, stdoutTail: "it's/app/\n" } },
      { match: /git apply/, respond: { exitCode: 0 } },
      { match: NO_SYMLINKS, respond: { exitCode: 0 } },
    ]);
    const applier = createGitPatchApplier({ commands, timeoutMs: 5_000 });
    // A `diff --git` diff: below the top, git reads its paths from the top, so the workspace goes in --directory.
    const patch = 'diff --git a/x b/x\nnew file mode 100644\n';
    expect(await applier.apply(candidate(patch), { workspace: '/w', signal })).toEqual({
      applied: true,
      detail: 'git apply applied the patch in /w',
      undo: { before: 'a'.repeat(40) },
    });
    const apply = `printf '%s' "$GOAL_LOOP_PATCH_0" | git apply --verbose --directory='it'\\''s/app/'`;
    expect(commands.calls.map((call) => call.command)).toEqual([
      'git rev-parse --show-prefix',
      `${apply} --check`,
      expect.stringMatching(NO_SYMLINKS),
      expect.stringMatching(/git hash-object --stdin$/),
      apply,
    ]);
    // The symlink query reads the paths as git does (numstat), from the repository's top, less the workspace's folder.
    expect(commands.calls[2]?.command).toContain(
      `printf '%s' "$GOAL_LOOP_PATCH_0" | git apply --numstat -z --directory='it'\\''s/app/' | tr '\\000' '\\n' | while IFS= read -r f; do f="\${f#*\t*\t}"; f="\${f#"$GOAL_LOOP_WORKSPACE_PREFIX"}"; if [ -n "$f" ]; then if [ -L "$f" ]; then printf '%s\\n' "$f"; fi; fi; done`,
    );
    expect(commands.calls[2]?.command).toMatch(/; true; }$/);
    expect(commands.calls[2]?.options.env).toEqual({
      GOAL_LOOP_PATCH_0: patch,
      GOAL_LOOP_WORKSPACE_PREFIX: "it's/app/",
    });
    expect(commands.calls[1]?.options).toMatchObject({
      cwd: '/w',
      timeoutMs: 5_000,
      env: { GOAL_LOOP_PATCH_0: patch, GOAL_LOOP_WORKSPACE_PREFIX: "it's/app/" },
    });
  });

  it("outside a repository (git rev-parse fails) the paths are the workspace's own: no --directory", async () => {
    const commands = createFakeCommandRunner([
      { match: 'git rev-parse --show-prefix', respond: { exitCode: 128, stderrTail: 'fatal: not a git repository' } },
      { match: /git apply/, respond: { exitCode: 0 } },
    ]);
    await createGitPatchApplier({ commands }).apply(candidate('p'), { workspace: '/w', signal });
    expect(commands.calls[1]?.command).toBe(`printf '%s' "$GOAL_LOOP_PATCH_0" | git apply --verbose --check`);
  });

  it('a patch git skips while exiting 0 is not applied: the check stops it, naming the paths', async () => {
    const commands = createFakeCommandRunner([
      { match: 'git rev-parse --show-prefix', respond: { exitCode: 0, stdoutTail: '\n' } },
      {
        match: /git apply/,
        respond: { exitCode: 0, stderrTail: "Skipped patch 'src/x.js'.\nChecking patch lib/y.js...\n" },
      },
    ]);
    const result = await createGitPatchApplier({ commands }).apply(candidate('p'), { workspace: '/w', signal });
    expect(result).toEqual({
      applied: false,
      detail: "git skipped 'src/x.js' (paths outside the workspace /w?); the patch was not applied",
    });
    expect(commands.calls.map((call) => call.command.endsWith('--check'))).toEqual([false, true]);
  });

  it('a symlink query that cannot run leaves the patch unapplied, saying why', async () => {
    const commands = createFakeCommandRunner([
      { match: 'git rev-parse --show-prefix', respond: { exitCode: 0, stdoutTail: '' } },
      { match: /--check$/, respond: { exitCode: 0 } },
      { match: NO_SYMLINKS, respond: { exitCode: null, timedOut: true } },
    ]);
    const result = await createGitPatchApplier({ commands }).apply(candidate('p'), { workspace: '/w', signal });
    expect(result).toEqual({
      applied: false,
      detail: 'the patch was not applied: whether it touches a symlink could not be checked (timed out after 60000 ms)',
    });
    const applies = commands.calls.filter((call) => /\| git apply --verbose/.test(call.command));
    expect(applies.map((call) => call.command.endsWith('--check'))).toEqual([true]);
  });

  it('a skip seen only when applying is not applied either', async () => {
    const commands = createFakeCommandRunner([
      { match: 'git rev-parse --show-prefix', respond: { exitCode: 0, stdoutTail: '' } },
      { match: /--check$/, respond: { exitCode: 0 } },
      FINGERPRINT,
      { match: NO_SYMLINKS, respond: { exitCode: 0 } },
      { match: /git apply/, respond: { exitCode: 0, stderrTail: "Skipped patch 'a'.\nSkipped patch 'b'.\n" } },
    ]);
    const result = await createGitPatchApplier({ commands }).apply(candidate('p'), { workspace: '/w', signal });
    expect(result).toEqual({
      applied: false,
      detail: "git skipped 'a', 'b' (paths outside the workspace /w?); the rest of the patch may have been applied",
    });
  });

  it('git missing or timing out is not applied, never a throw; a bad timeout is INVALID_OPTIONS', async () => {
    const missing = createFakeCommandRunner([]);
    expect(
      await createGitPatchApplier({ commands: missing }).apply(candidate('p'), { workspace: '/w', signal }),
    ).toEqual({
      applied: false,
      detail: 'git apply --check refused the patch: printf: command not found (exit code 127)',
    });
    const slow = createFakeCommandRunner([{ match: /git/, respond: { exitCode: null, timedOut: true } }]);
    expect(
      (await createGitPatchApplier({ commands: slow }).apply(candidate('p'), { workspace: '/w', signal })).detail,
    ).toBe('git rev-parse --show-prefix did not finish: git timed out');
    const slowApply = createFakeCommandRunner([
      { match: 'git rev-parse --show-prefix', respond: { exitCode: 0, stdoutTail: '' } },
      { match: /git apply/, respond: { exitCode: null, timedOut: true } },
    ]);
    expect(
      (await createGitPatchApplier({ commands: slowApply }).apply(candidate('p'), { workspace: '/w', signal })).detail,
    ).toBe('git apply --check refused the patch: git timed out');
    expect(() => createGitPatchApplier({ commands: slow, timeoutMs: 0 })).toThrow(
      /timeoutMs must be a positive integer/,
    );
  });
});
