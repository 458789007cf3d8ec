import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGitPatchApplier } from '../../src/fix-loop/git-patch-applier.js';
import { createExecaCommandRunner } from '../../src/node/command-runner.js';
import { candidate, diff, run, signal } from './patch-candidate.js';

// The applier with real git in a workspace that is a repository of its own.

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
    expect(result).toMatchObject({ applied: true, detail: `git apply applied the patch in ${workspace}` });
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
