import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FixCandidate } from '../../src/fix-loop/contracts/candidate.js';
import { createGitPatchApplier } from '../../src/fix-loop/git-patch-applier.js';
import { createExecaCommandRunner } from '../../src/node/command-runner.js';
import type { CommandRunner } from '../../src/ports/command-runner.js';
import { createFakeCommandRunner } from '../../src/testing/fake-command-runner.js';

const run = promisify(execFile);
const signal = new AbortController().signal;
const candidate = (patch?: string): FixCandidate => ({
  description: 'fix',
  confidence: 0.9,
  mutationType: 'auto',
  ...(patch === undefined ? {} : { patch }),
});

// A unified diff replacing every line of `name` (lines `before`) with `after`.
function diff(name: string, before: readonly string[], after: readonly string[]): string {
  return [
    `diff --git a/${name} b/${name}`,
    `--- a/${name}`,
    `+++ b/${name}`,
    `@@ -1,${before.length} +1,${after.length} @@`,
    ...before.map((line) => `-${line}`),
    ...after.map((line) => `+${line}`),
    '',
  ].join('\n');
}

let workspace = '';
beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'git-apply-'));
  await writeFile(join(workspace, 'a.txt'), 'one\ntwo\n');
  await run('git', ['init', '-q'], { cwd: workspace });
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

describe('createGitPatchApplier with real git', () => {
  const applier = createGitPatchApplier({ commands: createExecaCommandRunner() });

  it('applies a unified diff in the workspace', async () => {
    const result = await applier.apply(candidate(diff('a.txt', ['one', 'two'], ['one', 'deux'])), {
      workspace,
      signal,
    });
    expect(result).toEqual({ applied: true, detail: `git apply applied the patch in ${workspace}` });
    expect(await readFile(join(workspace, 'a.txt'), 'utf8')).toBe('one\ndeux\n');
  });

  it('a diff that does not apply leaves the file as it was and says why', async () => {
    const result = await applier.apply(candidate(diff('a.txt', ['uno', 'dos'], ['x'])), { workspace, signal });
    expect(result.applied).toBe(false);
    expect(result.detail).toMatch(/^git apply --check refused the patch: error: patch failed: a\.txt:1/);
    expect(await readFile(join(workspace, 'a.txt'), 'utf8')).toBe('one\ntwo\n');
  });

  it('passes a patch larger than one environment string intact (quotes, $, backslashes, non-ASCII, 200 KiB)', async () => {
    const before = Array.from({ length: 4_000 }, (_, i) => `line ${i} "$HOME" \\n 'é' ${'x'.repeat(40)}`);
    await writeFile(join(workspace, 'big.txt'), `${before.join('\n')}\n`);
    const after = before.map((line) => `${line} 🙂`);
    const patch = diff('big.txt', before, after);
    expect(patch.length).toBeGreaterThan(200_000);
    const result = await applier.apply(candidate(patch), { workspace, signal });
    expect(result).toMatchObject({ applied: true });
    expect(await readFile(join(workspace, 'big.txt'), 'utf8')).toBe(`${after.join('\n')}\n`);
  });

  it('a candidate without a patch, a NUL, a patch over 1 MiB: not applied, with the reason', async () => {
    expect(await applier.apply(candidate(), { workspace, signal })).toEqual({
      applied: false,
      detail: 'candidate "fix" carries no patch to apply',
    });
    expect((await applier.apply(candidate('a\0b'), { workspace, signal })).detail).toMatch(/NUL/);
    expect((await applier.apply(candidate('x'.repeat(1_048_577)), { workspace, signal })).detail).toMatch(
      /over the 1 MiB/,
    );
  });
});

describe('createGitPatchApplier in a subdirectory of a repository', () => {
  const applier = createGitPatchApplier({ commands: createExecaCommandRunner() });
  let root = '';
  let app = '';
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'git-apply-mono-'));
    app = join(root, 'packages', 'app');
    await mkdir(join(app, 'src'), { recursive: true });
    await mkdir(join(root, 'other'));
    await writeFile(join(app, 'src', 'x.js'), 'one\ntwo\n');
    await writeFile(join(root, 'other', 'o.js'), 'a\n');
    await run('git', ['init', '-q'], { cwd: root });
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('reads the paths relative to the workspace and applies them', async () => {
    const result = await applier.apply(candidate(diff('src/x.js', ['one', 'two'], ['one', 'deux'])), {
      workspace: app,
      signal,
    });
    expect(result).toEqual({ applied: true, detail: `git apply applied the patch in ${app}` });
    expect(await readFile(join(app, 'src', 'x.js'), 'utf8')).toBe('one\ndeux\n');
  });

  it('a patch whose paths lie outside the workspace is not applied, and says where paths are read', async () => {
    // A path relative to the repository's top, not the workspace: git looks for it below the workspace.
    const result = await applier.apply(candidate(diff('other/o.js', ['a'], ['b'])), { workspace: app, signal });
    expect(result.applied).toBe(false);
    expect(result.detail).toMatch(/^git apply --check refused the patch: error: packages\/app\/other\/o\.js: /);
    expect(result.detail).toMatch(/relative to the workspace, packages\/app\/ in its git repository\)$/);
    // A path that climbs out of the workspace is refused too (by git or before it runs), naming the path.
    const climbing = await applier.apply(candidate(diff('../../other/o.js', ['a'], ['b'])), { workspace: app, signal });
    expect(climbing.applied).toBe(false);
    expect(climbing.detail).toMatch(/\.\.\/other\/o\.js/);
    expect(await readFile(join(root, 'other', 'o.js'), 'utf8')).toBe('a\n');
  });

  it('when git still skips the paths (here: --directory dropped on the way), nothing is claimed applied', async () => {
    const real = createExecaCommandRunner();
    const losing: CommandRunner = {
      run: (command, runOptions) => real.run(command.replace(/ --directory='[^']*'/, ''), runOptions),
    };
    const result = await createGitPatchApplier({ commands: losing }).apply(
      candidate(diff('src/x.js', ['one', 'two'], ['one', 'deux'])),
      { workspace: app, signal },
    );
    expect(result).toEqual({
      applied: false,
      detail: `git skipped 'src/x.js' (paths outside the workspace ${app}?); the patch was not applied`,
    });
    expect(await readFile(join(app, 'src', 'x.js'), 'utf8')).toBe('one\ntwo\n');
  });

  it('a patch that does not apply leaves the file as it was', async () => {
    const result = await applier.apply(candidate(diff('src/x.js', ['uno', 'dos'], ['x'])), { workspace: app, signal });
    expect(result.applied).toBe(false);
    expect(result.detail).toMatch(
      /^git apply --check refused the patch: error: patch failed: packages\/app\/src\/x\.js:1/,
    );
    expect(await readFile(join(app, 'src', 'x.js'), 'utf8')).toBe('one\ntwo\n');
  });
});

// The applier's question whether the patch names a symlink of the workspace.
const NO_SYMLINKS = /\[ -L "\$f" \]/;

describe('createGitPatchApplier on a fake runner', () => {
  it('asks git where the workspace lies, then runs git apply --check and git apply there, patch in the environment', async () => {
    const commands = createFakeCommandRunner([
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
    });
    const apply = `printf '%s' "$GOAL_LOOP_PATCH_0" | git apply --verbose --directory='it'\\''s/app/'`;
    expect(commands.calls.map((call) => call.command)).toEqual([
      'git rev-parse --show-prefix',
      `${apply} --check`,
      expect.stringMatching(NO_SYMLINKS),
      apply,
    ]);
    // The symlink query reads the paths as git does (numstat), from the repository's top, less the workspace's folder.
    expect(commands.calls[2]?.command).toBe(
      `printf '%s' "$GOAL_LOOP_PATCH_0" | git apply --numstat -z --directory='it'\\''s/app/' | tr '\\000' '\\n' | while IFS= read -r f; do f="\${f#*\t*\t}"; f="\${f#"$GOAL_LOOP_WORKSPACE_PREFIX"}"; if [ -n "$f" ] && [ -L "$f" ]; then printf '%s\\n' "$f"; fi; done`,
    );
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
