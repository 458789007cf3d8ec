import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FixCandidate } from '../../src/fix-loop/contracts/candidate.js';
import { createGitPatchApplier } from '../../src/fix-loop/git-patch-applier.js';
import { createExecaCommandRunner } from '../../src/node/command-runner.js';

// Real git on a real workspace, in and out of a repository: a patch's headers can name any host path, and git
// apply follows `copy from`, `rename from` and deletions there unless the applier refuses them first.

const run = promisify(execFile);
const GIT = ['-c', 'user.email=fix@example.com', '-c', 'user.name=fix-loop test'];
const applier = createGitPatchApplier({ commands: createExecaCommandRunner() });

let top: string;
let ws: string;

beforeEach(async () => {
  top = await mkdtemp(join(tmpdir(), 'fix-loop-patch-paths-'));
  ws = join(top, 'project/ws');
  await mkdir(ws, { recursive: true });
  await writeFile(join(ws, 'a.txt'), 'a\n');
  await writeFile(join(top, 'outside.txt'), 'SECRET\n');
});

afterEach(async () => {
  await rm(top, { recursive: true, force: true });
});

// The applier reads only the patch (and the description); the rest of a candidate does not matter here.
const candidate = (patch: string) => ({ description: 'hostile patch', confidence: 1, patch }) as FixCandidate;
const apply = (patch: string) =>
  applier.apply(candidate(patch), { workspace: ws, signal: new AbortController().signal });

const PATCHES: Record<string, (top: string) => string> = {
  'copy from an absolute path': (at) =>
    `diff --git a/x b/stolen.txt\nsimilarity index 100%\ncopy from ${at}/outside.txt\ncopy to stolen.txt\n`,
  'copy from /etc/passwd': () =>
    'diff --git a/x b/passwd.txt\nsimilarity index 100%\ncopy from /etc/passwd\ncopy to passwd.txt\n',
  'rename from ../..': () =>
    'diff --git a/../../outside.txt b/moved.txt\nsimilarity index 100%\nrename from ../../outside.txt\nrename to moved.txt\n',
  'delete ../..': () =>
    'diff --git a/../../outside.txt b/../../outside.txt\ndeleted file mode 100644\n--- a/../../outside.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-SECRET\n',
  'a new symlink': () =>
    'diff --git a/link b/link\nnew file mode 120000\n--- /dev/null\n+++ b/link\n@@ -0,0 +1 @@\n+/etc/passwd\n\\ No newline at end of file\n',
  // Git reads a mode with strtoul: each of these makes a symlink if it reaches git.
  ...Object.fromEntries(
    ['new file mode  120000', 'new file mode \t120000', 'new file mode +120000', 'new file mode 120777'].map((line) => [
      `a new symlink through "${line}"`,
      () =>
        `diff --git a/link b/link\n${line}\nindex 0000000..e69de29\n--- /dev/null\n+++ b/link\n@@ -0,0 +1 @@\n+/etc\n\\ No newline at end of file\n`,
    ]),
  ),
  'a hook in .git': () =>
    'diff --git a/.git/hooks/post-checkout b/.git/hooks/post-checkout\nnew file mode 100755\n--- /dev/null\n+++ b/.git/hooks/post-checkout\n@@ -0,0 +1 @@\n+echo owned\n',
};

describe.each(['outside a repository', 'in a repository'])('createGitPatchApplier %s', (where) => {
  beforeEach(async () => {
    if (where === 'outside a repository') return;
    await run('git', ['init', '-q'], { cwd: ws });
    await run('git', ['add', '-A'], { cwd: ws });
    await run('git', [...GIT, 'commit', '-qm', 'initial'], { cwd: ws });
  });

  it.each(Object.keys(PATCHES))('refuses %s before git runs, touching nothing', async (name) => {
    const result = await apply(PATCHES[name]?.(top) ?? '');
    expect(result.applied).toBe(false);
    expect(result.detail).toMatch(/^the patch was refused before git ran: line \d+ /);
    expect((await readdir(ws)).filter((entry) => entry !== '.git')).toEqual(['a.txt']);
    expect(await readFile(join(top, 'outside.txt'), 'utf8')).toBe('SECRET\n');
  });

  it('refuses a patch that changes an existing symlink (git would point it anywhere), with no mode line in it', async () => {
    await symlink('a.txt', join(ws, 'link'));
    for (const patch of [
      '--- a/link\n+++ b/link\n@@ -1 +1 @@\n-a.txt\n\\ No newline at end of file\n+/etc/passwd\n\\ No newline at end of file\n',
      'diff --git a/link b/link\n--- a/link\n+++ b/link\n@@ -1 +1 @@\n-a.txt\n\\ No newline at end of file\n+/etc\n\\ No newline at end of file\n',
    ]) {
      const result = await apply(patch);
      expect(result).toEqual({
        applied: false,
        detail:
          'the patch was refused: it touches "link", a symlink in the workspace, which git would follow, copy, move or replace; this applier never creates, changes or removes symlinks',
      });
      expect(await readlink(join(ws, 'link'))).toBe('a.txt');
    }
  });

  it('refuses a symlink change whose ---/+++ names end in a tab or a diff -u timestamp, as git reads them', async () => {
    await symlink('a.txt', join(ws, 'link'));
    const body = '@@ -1 +1 @@\n-a.txt\n\\ No newline at end of file\n+/etc/passwd\n\\ No newline at end of file\n';
    const stamp = '2024-01-01 00:00:00.000000000 +0000';
    for (const header of [
      `--- a/link\t${stamp}\n+++ b/link\t${stamp}\n`,
      `--- a/link ${stamp}\n+++ b/link ${stamp}\n`,
      'diff --git a/foo b/bar\n--- a/link\tx\n+++ b/link\tx\n',
    ]) {
      const result = await apply(`${header}${body}`);
      expect(result.applied, header).toBe(false);
      expect(result.detail).toContain('touches "link", a symlink in the workspace');
      expect(await readlink(join(ws, 'link'))).toBe('a.txt');
    }
  });

  it('still applies a plain patch', async () => {
    const result = await apply('--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+b\n');
    expect(result).toMatchObject({ applied: true });
    expect(await readFile(join(ws, 'a.txt'), 'utf8')).toBe('b\n');
  });
});

describe('createGitPatchApplier in a workspace below its repository top', () => {
  it('refuses a plain diff naming a symlink by its path from the top (git drops as many folders as it guesses)', async () => {
    const repoTop = join(top, 'project');
    await run('git', ['init', '-q'], { cwd: repoTop });
    await symlink('a.txt', join(ws, 'link'));
    await run('git', ['add', '-A'], { cwd: repoTop });
    await run('git', [...GIT, 'commit', '-qm', 'initial'], { cwd: repoTop });
    const patch =
      '--- a/ws/link\n+++ b/ws/link\n@@ -1 +1 @@\n-a.txt\n\\ No newline at end of file\n+/etc/passwd\n\\ No newline at end of file\n';
    const result = await apply(patch);
    expect(result).toMatchObject({ applied: false, detail: expect.stringContaining('a symlink in the workspace') });
    expect(await readlink(join(ws, 'link'))).toBe('a.txt');
  });
});

describe('createGitPatchApplier: what the symlink check lets through', () => {
  beforeEach(async () => {
    await run('git', ['init', '-q'], { cwd: ws });
  });

  it('an edit of docs/README.md while README.md at the top is a symlink to it', async () => {
    await mkdir(join(ws, 'docs'));
    await writeFile(join(ws, 'docs/README.md'), 'read me\n');
    await symlink('docs/README.md', join(ws, 'README.md'));
    await run('git', ['add', '-A'], { cwd: ws });
    await run('git', [...GIT, 'commit', '-qm', 'initial'], { cwd: ws });
    const patch =
      'diff --git a/docs/README.md b/docs/README.md\n--- a/docs/README.md\n+++ b/docs/README.md\n@@ -1 +1,2 @@\n read me\n+more\n';
    expect(await apply(patch)).toMatchObject({ applied: true });
    expect(await readFile(join(ws, 'docs/README.md'), 'utf8')).toBe('read me\nmore\n');
  });

  it('a patch of 1,500 renames (no list of names in one environment variable)', async () => {
    await mkdir(join(ws, 'old'));
    for (let index = 0; index < 1_500; index++) await writeFile(join(ws, 'old', `module-${index}.txt`), `${index}\n`);
    await run('git', ['add', '-A'], { cwd: ws });
    await run('git', [...GIT, 'commit', '-qm', 'initial'], { cwd: ws });
    await run('git', ['mv', 'old', 'renamed-folder-with-a-long-name'], { cwd: ws });
    const { stdout: patch } = await run('git', ['diff', '--cached', '-M'], { cwd: ws, maxBuffer: 1 << 24 });
    await run('git', ['reset', '-q', '--hard'], { cwd: ws });
    expect(patch.length).toBeGreaterThan(200_000);
    expect(await apply(patch)).toMatchObject({ applied: true });
    expect(await readFile(join(ws, 'renamed-folder-with-a-long-name/module-1499.txt'), 'utf8')).toBe('1499\n');
  }, 30_000);
});
