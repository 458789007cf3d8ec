import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGitPatchApplier } from '../../src/fix-loop/git-patch-applier.js';
import { createExecaCommandRunner } from '../../src/node/command-runner.js';
import { candidate, run, signal } from './patch-candidate.js';
import { workspaceTree } from './workspace-tree.js';

// Patches the git applier refuses, on a real repository holding symlinks: each leaves the whole tree (.git
// included) byte for byte as it was.

const GIT = ['-c', 'user.email=fix@example.com', '-c', 'user.name=fix-loop test'];
let workspace = '';
beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'git-refused-'));
  await writeFile(join(workspace, 'a.txt'), 'one\ntwo\n');
  await symlink('/etc/hostname', join(workspace, 'link'));
  await mkdir(join(workspace, 'real'));
  await writeFile(join(workspace, 'real', 'inner.txt'), 'inner\n');
  await symlink('real', join(workspace, 'linkdir'));
  await run('git', ['init', '-q'], { cwd: workspace });
  await run('git', [...GIT, 'add', '.'], { cwd: workspace });
  await run('git', [...GIT, 'commit', '-q', '-m', 'start'], { cwd: workspace });
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

const header = (from: string, to: string, kind: 'copy' | 'rename') =>
  `diff --git a/${from} b/${to}\nsimilarity index 100%\n${kind} from ${from}\n${kind} to ${to}\n`;

describe('createGitPatchApplier refusing a patch', () => {
  const applier = createGitPatchApplier({ commands: createExecaCommandRunner() });

  it.each([
    ['a copy from a symlink', header('link', 'copied', 'copy'), /"link", a symlink/],
    ['a rename from a symlink', header('link', 'moved', 'rename'), /"link", a symlink/],
    ['a copy through a symlinked folder', header('linkdir/inner.txt', 'copied.txt', 'copy'), /refused/],
    [
      'a change to a symlink',
      'diff --git a/link b/link\n--- a/link\n+++ b/link\n@@ -1 +1 @@\n-/etc/hostname\n+/etc/shadow\n',
      /refused/,
    ],
    [
      'a diff that does not apply',
      'diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n-uno\n-dos\n+x\n+y\n',
      /--check refused/,
    ],
    [
      'a path out of the workspace',
      'diff --git a/../x b/../x\n--- a/../x\n+++ b/../x\n@@ -1 +1 @@\n-a\n+b\n',
      /climbs out/,
    ],
  ])('%s: not applied, and the tree is as it was', async (_, patch, detail) => {
    const before = await workspaceTree(workspace);
    const result = await applier.apply(candidate(patch), { workspace, signal });
    expect(result.applied).toBe(false);
    expect(result.detail).toMatch(detail);
    expect(await workspaceTree(workspace)).toEqual(before);
  });
});
