import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

// The real git workspace the fix-loop integration tests fix: a package whose sum() subtracts, and a node:test file
// with one test that fails because of it ("adds") and one that passes anyway ("adds zero").

const run = promisify(execFile);
const GIT = ['-c', 'user.email=fix@example.com', '-c', 'user.name=fix-loop test'];

/** sum.js as committed: the bug the tests find. */
export const SUM = 'export function sum(a, b) {\n  return a - b;\n}\n';
const TEST = [
  "import { test } from 'node:test';",
  "import assert from 'node:assert/strict';",
  "import { sum } from './sum.js';",
  "test('adds', () => assert.equal(sum(2, 3), 5));",
  "test('adds zero', () => assert.equal(sum(4, 0), 4));",
  '',
].join('\n');

/** A diff of sum.js's return line, against the committed file. */
export const returning = (line: string): string =>
  [
    'diff --git a/sum.js b/sum.js',
    '--- a/sum.js',
    '+++ b/sum.js',
    '@@ -1,3 +1,3 @@',
    ' export function sum(a, b) {',
    '-  return a - b;',
    `+  ${line}`,
    ' }',
    '',
  ].join('\n');

/** Makes `<parent>/pkg` (package.json, sum.js, sum.test.js) a git repository with one commit; returns its path. */
export async function makeSumWorkspace(parent: string): Promise<string> {
  const workspace = join(parent, 'pkg');
  await mkdir(workspace);
  await writeFile(join(workspace, 'package.json'), '{ "name": "pkg", "type": "module" }\n');
  await writeFile(join(workspace, 'sum.js'), SUM);
  await writeFile(join(workspace, 'sum.test.js'), TEST);
  await run('git', ['init', '-q'], { cwd: workspace });
  await run('git', [...GIT, 'add', '.'], { cwd: workspace });
  await run('git', [...GIT, 'commit', '-q', '-m', 'start'], { cwd: workspace });
  return workspace;
}
