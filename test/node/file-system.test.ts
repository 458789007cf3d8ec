import { readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isGoalLoopError } from '../../src/errors.js';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import { describeFileSystemConformance } from '../../src/testing/file-system-conformance.js';
import { freshRoot, mkfifo, root, useFreshRoot } from './fs-root.js';

// The Node filesystem: the conformance suite every FileSystem passes, then what is Node's own (its root, atomic
// writes on disk, synchronous stat and realpath, Node errors as causes).

describeFileSystemConformance(
  'node',
  async () => {
    const root = await freshRoot();
    return {
      fs: createNodeFileSystem(root, { maxReadBytes: 1024 }),
      symlink: (target, path) => symlink(target, join(root, path)),
      mkfifo: (path) => mkfifo(join(root, path)),
      maxReadBytes: 1024,
      cleanup: () => rm(root, { recursive: true, force: true }),
    };
  },
  { describe, it, beforeEach, afterEach },
);

describe('createNodeFileSystem', () => {
  useFreshRoot();

  it('exposes the absolute POSIX root and resolves a relative root', () => {
    expect(createNodeFileSystem(root).root).toBe(root);
    const relative = createNodeFileSystem('.');
    expect(relative.root).toBe(process.cwd());
  });

  it('writes real files on disk, atomically, leaving no temp files', async () => {
    const fs = createNodeFileSystem(root);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => fs.writeText('state.json', JSON.stringify({ i, pad: 'x'.repeat(10_000) }))),
    );
    const parsed = JSON.parse(await readFile(join(root, 'state.json'), 'utf8')) as { i: number };
    expect(parsed.i).toBeGreaterThanOrEqual(0);
    expect(await readdir(root)).toEqual(['state.json']);
  });

  it('writes a text of several MB with multi-byte characters byte for byte, as UTF-8', async () => {
    const fs = createNodeFileSystem(root);
    const text = `${'é€😀 line\n'.repeat(300_000)}end`;
    await fs.writeText('big.txt', text);
    const bytes = await readFile(join(root, 'big.txt'));
    expect(bytes.length).toBe(Buffer.byteLength(text, 'utf8'));
    expect(bytes.toString('utf8')).toBe(text);
  });

  it('replaces a symlink with a regular file on write (rename semantics), keeping the target', async () => {
    const fs = createNodeFileSystem(root);
    await writeFile(join(root, 'target.txt'), 'target');
    await symlink('target.txt', join(root, 'link.txt'));
    await fs.writeText('link.txt', 'replaced');
    expect((await fs.stat('link.txt'))?.type).toBe('file');
    expect(await fs.readText('target.txt')).toBe('target');
  });

  it('stats synchronously behind a promise: missing (also under a file) is null, other faults are IO_ERROR', async () => {
    const fs = createNodeFileSystem(root);
    await writeFile(join(root, 'file.txt'), 'x');
    await symlink('nowhere', join(root, 'dangling'));
    expect(await fs.stat('missing')).toBeNull();
    expect(await fs.stat('file.txt/inner')).toBeNull();
    expect((await fs.stat('dangling'))?.type).toBe('symlink');
    expect(await fs.stat('file.txt')).toMatchObject({ type: 'file', size: 1 });
    const long = 'x'.repeat(5000);
    const pending = fs.stat(long);
    expect(pending).toBeInstanceOf(Promise);
    const error = await pending.catch((caught: unknown) => caught);
    expect(isGoalLoopError(error, 'IO_ERROR')).toBe(true);
    expect((error as Error).message).toContain('stat "xxx');
    expect(((error as Error).cause as { code?: string }).code).toBe('ENAMETOOLONG');
  });

  it('resolves realpath synchronously behind a promise: missing is null, a symlink loop is IO_ERROR', async () => {
    const fs = createNodeFileSystem(root);
    await writeFile(join(root, 'file.txt'), 'x');
    await symlink('loop-b', join(root, 'loop-a'));
    await symlink('loop-a', join(root, 'loop-b'));
    await symlink('file.txt', join(root, 'alias'));
    expect(await fs.realpath('alias')).toBe('file.txt');
    expect(await fs.realpath('file.txt/inner')).toBeNull();
    expect(await fs.realpath('missing/deeper')).toBeNull();
    const pending = fs.realpath('loop-a');
    expect(pending).toBeInstanceOf(Promise);
    const error = await pending.catch((caught: unknown) => caught);
    expect(isGoalLoopError(error, 'IO_ERROR')).toBe(true);
    expect((error as Error).message).toContain('realpath "loop-a"');
    expect(((error as Error).cause as { code?: string }).code).toBe('ELOOP');
  });

  it('wraps real faults in IO_ERROR with the Node error as cause', async () => {
    const fs = createNodeFileSystem(root);
    await fs.mkdir('dir');
    const error = await fs.readText('dir').catch((caught: unknown) => caught);
    expect(isGoalLoopError(error, 'IO_ERROR')).toBe(true);
    expect((error as Error).message).toContain('dir');
    expect(((error as Error).cause as { code?: string }).code).toBe('EISDIR');
  });

  it('refuses a negative byte range', async () => {
    const fs = createNodeFileSystem(root);
    await fs.writeText('a.txt', 'abc');
    await expect(fs.readBytes('a.txt', -1, 2)).rejects.toSatisfy((error: unknown) =>
      isGoalLoopError(error, 'INVALID_OPTIONS'),
    );
  });

  it('reports realpath relative to the root even when the root is reached through a symlink', async () => {
    await writeFile(join(root, 'f.txt'), 'x');
    const alias = `${root}-alias`;
    await symlink(root, alias);
    try {
      const fs = createNodeFileSystem(alias);
      expect(await fs.realpath('f.txt')).toBe('f.txt');
      expect(await fs.realpath(`${alias}/f.txt`)).toBe('f.txt');
    } finally {
      await rm(alias, { force: true });
    }
  });
});
