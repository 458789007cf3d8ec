import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGitPatchApplier } from '../../src/fix-loop/git-patch-applier.js';
import { createExecaCommandRunner } from '../../src/node/command-runner.js';
import type { CommandRunner } from '../../src/ports/command-runner.js';
import { candidate, diff, run, signal } from './patch-candidate.js';

// The applier with real git in a workspace below the top of its repository: the patch's paths are read relative to
// the workspace.

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
    expect(result).toMatchObject({ applied: true, detail: `git apply applied the patch in ${app}` });
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
