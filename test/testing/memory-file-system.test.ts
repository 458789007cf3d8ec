import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isGoalLoopError } from '../../src/errors.js';
import { describeFileSystemConformance } from '../../src/testing/file-system-conformance.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';

describeFileSystemConformance(
  'memory',
  async () => {
    const fs = createMemoryFileSystem({ maxReadBytes: 1024 });
    return { fs, symlink: fs.symlink, mkfifo: fs.mkfifo, maxReadBytes: 1024 };
  },
  { describe, it, beforeEach, afterEach },
);

describeFileSystemConformance(
  'memory without symlinks',
  async () => ({ fs: createMemoryFileSystem({ root: '/srv/deep/project' }) }),
  { describe, it, beforeEach, afterEach },
);

describe('createMemoryFileSystem', () => {
  it('starts from the given files with their directories implied, and snapshots them', async () => {
    const fs = createMemoryFileSystem({ files: { 'b/x.txt': 'x', 'a.txt': 'a', '/elsewhere/y.txt': 'y' } });
    expect(fs.root).toBe('/project');
    expect(await fs.list('.')).toEqual(['a.txt', 'b']);
    expect((await fs.stat('b'))?.type).toBe('directory');
    expect(fs.snapshot()).toEqual({ '../elsewhere/y.txt': 'y', 'a.txt': 'a', 'b/x.txt': 'x' });
    expect(Object.keys(fs.snapshot())).toEqual(['../elsewhere/y.txt', 'a.txt', 'b/x.txt']);
  });

  it('refuses a relative root', () => {
    expect(() => createMemoryFileSystem({ root: 'project' })).toThrowError(/absolute/);
  });

  it('follows absolute and relative symlink targets, including outside the root', async () => {
    const fs = createMemoryFileSystem({ files: { '/etc/passwd': 'root:x', 'docs/a.md': 'A' } });
    await fs.symlink('/etc/passwd', 'leak');
    await fs.symlink('../docs', 'nested/docs-link');
    expect(await fs.realpath('leak')).toBe('../etc/passwd');
    expect(await fs.readText('leak')).toBe('root:x');
    expect(await fs.realpath('nested/docs-link/a.md')).toBe('docs/a.md');
  });

  it('appends through a symlink to its target, and creates a dangling target', async () => {
    const fs = createMemoryFileSystem({ files: { 'log.txt': 'a\n' } });
    await fs.symlink('log.txt', 'log-link');
    await fs.appendText('log-link', 'b\n');
    expect(await fs.readText('log.txt')).toBe('a\nb\n');
    await fs.symlink('created.txt', 'dangling');
    await fs.appendText('dangling', 'new');
    expect(await fs.readText('created.txt')).toBe('new');
  });

  it('reports a symlink loop as IO_ERROR', async () => {
    const fs = createMemoryFileSystem();
    await fs.symlink('b', 'a');
    await fs.symlink('a', 'b');
    await expect(fs.readText('a')).rejects.toSatisfy((error: unknown) => isGoalLoopError(error, 'IO_ERROR'));
  });

  it('refuses to rename a directory into itself or over a file', async () => {
    const fs = createMemoryFileSystem({ files: { 'd/x.txt': 'x', 'f.txt': 'f' } });
    const isIoError = (error: unknown) => isGoalLoopError(error, 'IO_ERROR');
    await expect(fs.rename('d', 'd/inner')).rejects.toSatisfy(isIoError);
    await expect(fs.rename('d', 'f.txt')).rejects.toSatisfy(isIoError);
    await expect(fs.rename('f.txt', 'missing-dir/f.txt')).rejects.toSatisfy(isIoError);
    expect(fs.snapshot()).toEqual({ 'd/x.txt': 'x', 'f.txt': 'f' });
  });

  it('stamps mtimes from the injected source', async () => {
    let time = 1_000;
    const fs = createMemoryFileSystem({ now: () => time });
    await fs.writeText('a.txt', 'a');
    time = 2_000;
    await fs.writeText('b.txt', 'b');
    expect((await fs.stat('a.txt'))?.mtimeMs).toBe(1_000);
    expect((await fs.stat('b.txt'))?.mtimeMs).toBe(2_000);
  });

  it("refuses a FIFO and a file over the read cap with the Node adapter's messages", async () => {
    const fs = createMemoryFileSystem({ files: { 'big.txt': 'x'.repeat(11) }, maxReadBytes: 10 });
    await fs.mkfifo('goal.json');
    await expect(fs.readText('goal.json')).rejects.toThrow('read "goal.json" failed: ENOTREG: it is a FIFO');
    await expect(fs.readText('big.txt')).rejects.toThrow(/"big\.txt" failed: EFBIG: the file holds 11 bytes/);
    await expect(fs.mkfifo('goal.json')).rejects.toSatisfy((error: unknown) => isGoalLoopError(error, 'IO_ERROR'));
    expect(() => createMemoryFileSystem({ maxReadBytes: 1.5 })).toThrowError(/maxReadBytes/);
  });

  it('sweeps stale temp files by the injected clock', async () => {
    let time = 1_000;
    const fs = createMemoryFileSystem({ now: () => time });
    const temp = '.state.json.7.0f8e7c1a-2b3c-4d5e-8f90-123456789abc.tmp';
    await fs.writeText(`run/${temp}`, '{"torn');
    time = 1_500;
    expect(await fs.removeStaleTempFiles('run', { olderThanMs: 600 })).toEqual([]);
    time = 2_000;
    expect(await fs.removeStaleTempFiles('run', { olderThanMs: 600 })).toEqual([`run/${temp}`]);
    expect(fs.snapshot()).toEqual({});
  });
});
