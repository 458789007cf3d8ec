import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import type { FileSystem } from '../../src/ports/file-system.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';

// The same layout on every filesystem: a project beside an `outside` folder, with links in and out.
const files: Record<string, string> = {
  'src/a.ts': 'export {}',
  'README.md': '# readme',
  'runs/r1/notes.md': 'notes',
  'runs/r1/artifacts/plan.json': '{}',
  'runs/r1/README.md/inner.txt': 'a directory named like a file',
};
const links: Record<string, string> = {
  'link-in': 'src',
  'link-out': '../outside',
  'file-out': '../outside/secret.txt',
  dangling: 'nope.txt',
  'runs/r1/ev-link': '../../src/a.ts',
  'runs/r1/evidence-out': '../../../outside/secret.txt',
};

interface Fixture {
  readonly fs: FileSystem;
  readonly cleanup: () => Promise<void>;
}

// Builds the layout in memory.
async function memoryFixture(): Promise<Fixture> {
  const fs = createMemoryFileSystem({
    root: '/base/project',
    files: { ...files, '/base/outside/secret.txt': 'secret' },
  });
  for (const [path, target] of Object.entries(links)) await fs.symlink(target, path);
  return { fs, cleanup: async () => undefined };
}

// Builds the layout in a fresh temp directory with real symlinks.
async function nodeFixture(): Promise<Fixture> {
  const base = await mkdtemp(join(tmpdir(), 'goal-loop-contain-'));
  const root = join(base, 'project');
  for (const [path, text] of Object.entries({ ...files, '../outside/secret.txt': 'secret' })) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  for (const [path, target] of Object.entries(links)) await symlink(target, join(root, path));
  return { fs: createNodeFileSystem(root), cleanup: () => rm(base, { recursive: true, force: true }) };
}

/** The two filesystems the containment tests build the layout on, each with its builder. */
export const LAYOUTS = [
  ['memory', memoryFixture],
  ['node', nodeFixture],
] as const;

/** The filesystem holding the layout for the current test. */
export let fs: FileSystem;

/** Builds the layout with `makeFixture` before each test (as {@link fs}), and removes it after. */
export function useLayout(makeFixture: () => Promise<Fixture>): void {
  let fixture: Fixture;
  beforeEach(async () => {
    fixture = await makeFixture();
    fs = fixture.fs;
  });
  afterEach(async () => {
    await fixture.cleanup();
  });
}
