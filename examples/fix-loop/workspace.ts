// The fix loop's workspace: a copy of ./template (a small package with two known bugs, tested by `node --test`,
// so neither a build step nor an install is needed) in a folder of its own, made a git repository with one commit
// so the git patch applier has a work tree to apply diffs to.
import { execFile } from 'node:child_process';
import { cp, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const here = fileURLToPath(new URL('.', import.meta.url));

/** The template's build: a syntax check of the source (a patch that breaks the syntax fails the build). */
export const BUILD_COMMAND = 'node --check src/slugify.js';

/** The template's tests: a readable report on stdout and a JUnit XML report in report.xml, which the loop reads. */
export const TEST_COMMAND =
  'node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=report.xml';

/** Extra files laid over the template: `non-latin` adds a test that no automatic fix can pass. */
export type Overlay = 'non-latin';

/**
 * Copies the template (and the overlays) to `<root>/<name>`, then runs `git init` and commits every file,
 * with a fixed author so the example needs no git identity. Returns the workspace's absolute path.
 */
export async function createSlugifyWorkspace(
  root: string,
  name: string,
  overlays: readonly Overlay[] = [],
): Promise<string> {
  const workspace = join(root, name);
  await mkdir(workspace, { recursive: true });
  await cp(join(here, 'template'), workspace, { recursive: true });
  for (const overlay of overlays) await cp(join(here, 'overlays', overlay), workspace, { recursive: true });
  const git = (...args: string[]) =>
    run('git', ['-c', 'user.name=goal-loop example', '-c', 'user.email=example@goal-loop.invalid', ...args], {
      cwd: workspace,
    });
  await git('init', '--quiet', '--initial-branch=main');
  await git('add', '--all');
  await git('commit', '--quiet', '--no-verify', '--message', 'The slugify package, before the fix loop');
  return workspace;
}
