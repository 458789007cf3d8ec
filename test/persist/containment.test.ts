import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import { resolveContainedPath, resolveEvidencePath } from '../../src/persist/containment.js';
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

describe.each([
  ['memory', memoryFixture],
  ['node', nodeFixture],
])('containment on the %s filesystem', (_name, makeFixture) => {
  let fixture: Fixture;
  let fs: FileSystem;
  beforeEach(async () => {
    fixture = await makeFixture();
    fs = fixture.fs;
  });
  afterEach(async () => {
    await fixture.cleanup();
  });

  it('resolves a plain path and the same path written with `.`, `..` and extra slashes alike, on the root and a run dir', async () => {
    const cases: [string, string, string, string][] = [
      ['src/a.ts', '.', './src//a.ts', './'],
      ['notes.md', 'runs/r1', 'x/../notes.md', './runs//r1/'],
      ['artifacts/plan.json', 'runs/r1', 'artifacts/./plan.json', 'runs/r1/.'],
      ['link-in/a.ts', '.', 'src/../link-in/a.ts', 'runs/..'],
      ['link-out/secret.txt', '.', './link-out/secret.txt', '.'],
      ['missing.txt', 'runs/r1', './missing.txt', 'runs/r1/'],
      ['../r1/notes.md', 'runs/r1', '../../runs/r1/./notes.md', 'runs/r1'],
    ];
    for (const [plain, base, written, writtenBase] of cases) {
      const cache = new Map();
      const fact = await resolveContainedPath(fs, plain, { base });
      // A refusal quotes the path as written; only its state must agree.
      const expected = fact.state === 'refused' ? { state: 'refused' } : fact;
      expect(await resolveContainedPath(fs, written, { base: writtenBase })).toMatchObject(expected);
      expect(await resolveContainedPath(fs, plain, { base, cache })).toEqual(fact);
      expect(await resolveContainedPath(fs, written, { base: writtenBase, cache })).toMatchObject(expected);
    }
    expect(await resolveContainedPath(fs, 'link-out/secret.txt')).toMatchObject({ state: 'refused' });
    expect(await resolveContainedPath(fs, '../r1/notes.md', { base: 'runs/r1' })).toEqual({
      state: 'present',
      path: 'runs/r1/notes.md',
      type: 'file',
    });
  });

  it('reports present files and directories with their resolved paths', async () => {
    expect(await resolveContainedPath(fs, 'src/a.ts')).toEqual({ state: 'present', path: 'src/a.ts', type: 'file' });
    expect(await resolveContainedPath(fs, 'src/')).toEqual({ state: 'present', path: 'src', type: 'directory' });
    expect(await resolveContainedPath(fs, './src/../src/a.ts')).toEqual({
      state: 'present',
      path: 'src/a.ts',
      type: 'file',
    });
    expect(await resolveContainedPath(fs, '.')).toEqual({ state: 'present', path: '.', type: 'directory' });
    expect(await resolveContainedPath(fs, 'link-in/a.ts', { base: 'root' })).toEqual({
      state: 'present',
      path: 'src/a.ts',
      type: 'file',
    });
  });

  it('reports missing paths, dangling links included', async () => {
    expect(await resolveContainedPath(fs, 'missing.json')).toEqual({ state: 'missing', path: 'missing.json' });
    expect(await resolveContainedPath(fs, 'src/deeper/missing.json')).toEqual({
      state: 'missing',
      path: 'src/deeper/missing.json',
    });
    expect(await resolveContainedPath(fs, 'dangling')).toEqual({ state: 'missing', path: 'dangling' });
  });

  it('resolves relative paths against a run dir, inside the project', async () => {
    expect(await resolveContainedPath(fs, 'artifacts/plan.json', { base: 'runs/r1' })).toEqual({
      state: 'present',
      path: 'runs/r1/artifacts/plan.json',
      type: 'file',
    });
    expect(await resolveContainedPath(fs, '../../src/a.ts', { base: 'runs/r1' })).toEqual({
      state: 'present',
      path: 'src/a.ts',
      type: 'file',
    });
    expect(await resolveContainedPath(fs, '../../../x', { base: 'runs/r1' })).toMatchObject({ state: 'refused' });
  });

  it('refuses ".." escapes before touching the filesystem, naming the path', async () => {
    for (const path of ['../outside/secret.txt', 'src/../../outside/secret.txt', '..']) {
      const fact = await resolveContainedPath(fs, path);
      expect(fact.state).toBe('refused');
      expect(fact.state === 'refused' && fact.detail).toContain(`"${path}"`);
    }
  });

  it('accepts absolute paths inside the root and refuses those outside', async () => {
    expect(await resolveContainedPath(fs, `${fs.root}/src/a.ts`)).toEqual({
      state: 'present',
      path: 'src/a.ts',
      type: 'file',
    });
    expect(await resolveContainedPath(fs, fs.root)).toEqual({ state: 'present', path: '.', type: 'directory' });
    for (const path of ['/etc/passwd', `${fs.root}x/a.ts`, `${fs.root}/../outside/secret.txt`]) {
      const fact = await resolveContainedPath(fs, path);
      expect(fact).toMatchObject({ state: 'refused' });
      expect(fact.state === 'refused' && fact.detail).toContain(path);
    }
  });

  it('refuses symlinks that lead out, also toward missing files under them', async () => {
    for (const path of [
      'link-out/secret.txt',
      'file-out',
      'link-out',
      'link-out/missing.txt',
      'link-out/deeper/missing.txt',
    ]) {
      const fact = await resolveContainedPath(fs, path);
      expect(fact, path).toMatchObject({ state: 'refused' });
      expect(fact.state === 'refused' && fact.detail).toContain(`"${path}"`);
      expect(fact.state === 'refused' && fact.detail).toContain('symlink');
    }
  });

  it('refuses empty paths', async () => {
    expect(await resolveContainedPath(fs, '')).toMatchObject({ state: 'refused' });
    expect(await resolveContainedPath(fs, '  ')).toMatchObject({ state: 'refused' });
  });

  it('accepts evidence that is a regular file in the run dir first, then the project root', async () => {
    for (const path of [
      'notes.md',
      'artifacts/plan.json',
      'src/a.ts',
      'ev-link',
      '../../src/a.ts',
      `${fs.root}/src/a.ts`,
    ]) {
      const fact = await resolveEvidencePath(fs, 'runs/r1', path);
      expect(fact, path).toMatchObject({ ok: true });
    }
    expect((await resolveEvidencePath(fs, 'runs/r1', 'ev-link')).detail).toContain('"src/a.ts"');
  });

  it('rejects evidence that is missing, a directory, or leads out of the project', async () => {
    const check = (path: string) => resolveEvidencePath(fs, 'runs/r1', path);
    expect(await check('missing.md')).toMatchObject({ ok: false, detail: expect.stringContaining('does not exist') });
    expect(await check('artifacts')).toMatchObject({
      ok: false,
      detail: expect.stringContaining('not a regular file'),
    });
    expect(await check('README.md')).toMatchObject({ ok: false, detail: expect.stringContaining('directory') });
    expect(await check('evidence-out')).toMatchObject({ ok: false, detail: expect.stringContaining('symlink') });
    expect(await check('../../../outside/secret.txt')).toMatchObject({
      ok: false,
      detail: expect.stringContaining('..'),
    });
    expect(await check('/etc/passwd')).toMatchObject({ ok: false });
    expect(await check('')).toMatchObject({ ok: false });
  });
});
