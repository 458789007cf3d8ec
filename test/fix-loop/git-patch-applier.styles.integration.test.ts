import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FixCandidate } from '../../src/fix-loop/contracts/candidate.js';
import { createGitPatchApplier } from '../../src/fix-loop/git-patch-applier.js';
import { createExecaCommandRunner } from '../../src/node/command-runner.js';
import { createFakeCommandRunner } from '../../src/testing/fake-command-runner.js';

// Real git, a workspace at the top of its repository and one in a subfolder: a diff applies the same way
// whether its headers are git's (`diff --git`) or plain (`---`/`+++`, as `diff -u` or a model writes them).

const run = promisify(execFile);
const signal = new AbortController().signal;
const applier = createGitPatchApplier({ commands: createExecaCommandRunner() });
const candidate = (patch: string): FixCandidate => ({
  description: 'fix',
  confidence: 0.9,
  mutationType: 'auto',
  patch,
});

const hunk = '@@ -1 +1 @@\n-one\n+uno\n';
// Diffs changing src/x.js (`one` → `uno`), creating new.js and deleting gone.js, in each header style.
const STYLES: Record<string, string> = {
  'diff --git': `diff --git a/src/x.js b/src/x.js\n--- a/src/x.js\n+++ b/src/x.js\n${hunk}diff --git a/new.js b/new.js\nnew file mode 100644\n--- /dev/null\n+++ b/new.js\n@@ -0,0 +1 @@\n+n\ndiff --git a/gone.js b/gone.js\ndeleted file mode 100644\n--- a/gone.js\n+++ /dev/null\n@@ -1 +0,0 @@\n-g\n`,
  'plain a/ b/': `--- a/src/x.js\n+++ b/src/x.js\n${hunk}--- /dev/null\n+++ b/new.js\n@@ -0,0 +1 @@\n+n\n--- a/gone.js\n+++ /dev/null\n@@ -1 +0,0 @@\n-g\n`,
  'plain with timestamps': `--- a/src/x.js\t2024-05-01 12:00:00.000000000 +0200\n+++ b/src/x.js\t2024-05-01 12:01:00.000000000 +0200\n${hunk}--- /dev/null\t1970-01-01 00:00:00.000000000 +0000\n+++ b/new.js\t2024-05-01 12:01:00.000000000 +0200\n@@ -0,0 +1 @@\n+n\n--- a/gone.js\n+++ /dev/null\n@@ -1 +0,0 @@\n-g\n`,
};
// Without a/ b/ git takes names as they are only when they hold no folder (it guesses -p0 from that).
const NO_PREFIX = '--- top.js\n+++ top.js\n@@ -1 +1 @@\n-t\n+T\n--- /dev/null\n+++ new.js\n@@ -0,0 +1 @@\n+n\n';

let root = '';
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'git-apply-styles-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

// A workspace at `below` under a committed repository at `root`, with a file beside it that must stay as it is.
async function workspaceAt(below: string): Promise<string> {
  const ws = join(root, below);
  await mkdir(join(ws, 'src'), { recursive: true });
  await writeFile(join(ws, 'src', 'x.js'), 'one\n');
  await writeFile(join(ws, 'gone.js'), 'g\n');
  await writeFile(join(ws, 'top.js'), 't\n');
  await writeFile(join(root, 'outside.js'), 'one\n');
  await run('git', ['init', '-q'], { cwd: root });
  await run('git', ['add', '-A'], { cwd: root });
  await run('git', ['-c', 'user.email=f@example.com', '-c', 'user.name=f', 'commit', '-qm', 'i'], { cwd: root });
  return ws;
}

const read = (path: string) => readFile(path, 'utf8').catch(() => null);

describe.each([
  ['at the top of its repository', '.'],
  ['in a subfolder of its repository', 'packages/slugify'],
])('createGitPatchApplier, workspace %s', (_where, below) => {
  it.each(Object.keys(STYLES))('applies a %s diff: change, new file, deletion', async (style) => {
    const ws = await workspaceAt(below);
    const result = await applier.apply(candidate(STYLES[style] ?? ''), { workspace: ws, signal });
    expect(result).toMatchObject({ applied: true, detail: `git apply applied the patch in ${ws}` });
    expect(await read(join(ws, 'src', 'x.js'))).toBe('uno\n');
    expect(await read(join(ws, 'new.js'))).toBe('n\n');
    expect(await read(join(ws, 'gone.js'))).toBeNull();
    expect(await read(join(root, 'outside.js'))).toBe('one\n');
  });

  it('applies a plain diff whose names have no a/ b/ prefix', async () => {
    const ws = await workspaceAt(below);
    expect(await applier.apply(candidate(NO_PREFIX), { workspace: ws, signal })).toMatchObject({ applied: true });
    expect(await read(join(ws, 'top.js'))).toBe('T\n');
    expect(await read(join(ws, 'new.js'))).toBe('n\n');
  });

  it.each([
    ['plain, climbing out', `--- a/../outside.js\n+++ b/../outside.js\n${hunk}`, /climbs out/],
    ['plain, absolute once a/ is stripped', `--- a/${root}/outside.js\n+++ b/x\n${hunk}`, /"\/\/"/],
    ['plain, absolute', '--- /etc/hostname\n+++ /etc/hostname\n@@ -1 +1 @@\n-a\n+b\n', /absolute path/],
    [
      'git, climbing out',
      `diff --git a/../outside.js b/../outside.js\n--- a/../outside.js\n+++ b/../outside.js\n${hunk}`,
      /climbs out/,
    ],
  ])('refuses a %s path before git runs, touching nothing', async (_name, patch, why) => {
    const ws = await workspaceAt(below);
    const result = await applier.apply(candidate(patch), { workspace: ws, signal });
    expect(result.applied).toBe(false);
    expect(result.detail).toMatch(/^the patch was refused before git ran: /);
    expect(result.detail).toMatch(why);
    expect(await read(join(root, 'outside.js'))).toBe('one\n');
  });
});

describe('createGitPatchApplier, both header styles in one diff', () => {
  const mixed = `${STYLES['diff --git']?.split('diff --git a/new.js')[0] ?? ''}--- /dev/null\n+++ b/new.js\n@@ -0,0 +1 @@\n+n\n`;

  it('in a subfolder workspace: refused before git applies anything, saying why', async () => {
    const ws = await workspaceAt('packages/slugify');
    const result = await applier.apply(candidate(mixed), { workspace: ws, signal });
    expect(result.applied).toBe(false);
    expect(result.detail).toMatch(/^the patch mixes `diff --git` sections with plain `---`\/`\+\+\+` ones/);
    expect(await read(join(ws, 'src', 'x.js'))).toBe('one\n');
    expect(await read(join(ws, 'new.js'))).toBeNull();
  });

  it('at the top of the repository, where git reads both from the same folder: applied', async () => {
    const ws = await workspaceAt('.');
    expect(await applier.apply(candidate(mixed), { workspace: ws, signal })).toMatchObject({ applied: true });
    expect(await read(join(ws, 'src', 'x.js'))).toBe('uno\n');
    expect(await read(join(ws, 'new.js'))).toBe('n\n');
  });
});

describe('createGitPatchApplier passes --directory by header style (fake runner)', () => {
  it.each([
    ['diff --git', `diff --git a/x b/x\n--- a/x\n+++ b/x\n${hunk}`, " --directory='app/'"],
    ['plain', `--- a/x\n+++ b/x\n${hunk}`, ''],
  ])('a %s diff below the top', async (_style, patch, directory) => {
    const commands = createFakeCommandRunner([
      { match: 'git rev-parse --show-prefix', respond: { exitCode: 0, stdoutTail: 'app/\n' } },
      { match: /git apply/, respond: { exitCode: 0 } },
    ]);
    await createGitPatchApplier({ commands }).apply(candidate(patch), { workspace: '/w', signal });
    expect(commands.calls[1]?.command).toBe(
      `printf '%s' "$GOAL_LOOP_PATCH_0" | git apply --verbose${directory} --check`,
    );
  });
});
