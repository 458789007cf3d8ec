import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isGoalLoopError } from '../../src/errors.js';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import { describeFileSystemConformance } from '../../src/testing/file-system-conformance.js';

// Makes a fresh temp directory as a root.
const freshRoot = (): Promise<string> => mkdtemp(join(tmpdir(), 'goal-loop-fs-'));
// Makes a real named pipe with mkfifo(1).
const mkfifo = async (path: string): Promise<void> => void execFileSync('mkfifo', [path]);
// The message of what a promise rejected with, and how long it took to settle.
const settle = async (operation: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> => {
  const started = performance.now();
  const error = await operation().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  return { error, ms: performance.now() - started };
};

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
  let root: string;
  beforeEach(async () => {
    root = await freshRoot();
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

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

  it('refuses a FIFO as goal.json at once, with no writer and with one', async () => {
    const fs = createNodeFileSystem(root);
    await mkfifo(join(root, 'goal.json'));
    const read = await settle(() => fs.readText('goal.json'));
    expect(isGoalLoopError(read.error, 'IO_ERROR')).toBe(true);
    expect((read.error as Error).message).toMatch(/"goal\.json".*a FIFO/);
    expect(read.ms).toBeLessThan(1_000);
    // A writer that keeps the pipe open and never finishes: reading it would never end.
    const writer = spawn('sh', ['-c', 'exec 3>goal.json; while :; do printf x >&3; done'], { cwd: root });
    try {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const held = await settle(() => fs.readText('goal.json'));
      expect(isGoalLoopError(held.error, 'IO_ERROR')).toBe(true);
      expect(held.ms).toBeLessThan(1_000);
    } finally {
      writer.kill('SIGKILL');
    }
  });

  it('refuses a device behind a run file without reading it', async () => {
    const fs = createNodeFileSystem(root);
    await symlink('/dev/zero', join(root, 'metrics.json'));
    const { error, ms } = await settle(() => fs.readText('metrics.json'));
    expect(isGoalLoopError(error, 'IO_ERROR')).toBe(true);
    expect((error as Error).message).toContain('"metrics.json" failed: ENOTREG: it is a character device');
    expect(ms).toBeLessThan(1_000);
    await expect(fs.readBytes('metrics.json', 0, 10)).rejects.toThrow(/character device/);
  });

  it('caps what readText reads at 256 MiB by default, naming the path and the size', async () => {
    const fs = createNodeFileSystem(root);
    execFileSync('truncate', ['-s', String(256 * 1024 * 1024 + 1), join(root, 'huge.jsonl')]);
    const { error } = await settle(() => fs.readText('huge.jsonl'));
    expect(isGoalLoopError(error, 'IO_ERROR')).toBe(true);
    expect((error as Error).message).toContain('"huge.jsonl"');
    expect((error as Error).message).toContain(String(256 * 1024 * 1024 + 1));
    expect(((error as Error).cause as { code?: string }).code).toBe('EFBIG');
    expect(() => createNodeFileSystem(root, { maxReadBytes: -1 })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
  });

  it('removes the temp files an atomic write killed mid-write left behind', async () => {
    // A writer killed after its temp file was written and before the rename: the temp file stays.
    const script = `
      const { promises: fsp } = require('node:fs');
      const { randomUUID } = require('node:crypto');
      (async () => {
        const handle = await fsp.open('.loop-state.json.' + process.pid + '.' + randomUUID() + '.tmp', 'wx');
        await handle.writeFile('{"partial":');
        process.stdout.write('written');
        setInterval(() => {}, 1000);
      })();`;
    const writer = spawn(process.execPath, ['-e', script], { cwd: root });
    await new Promise((resolve) => writer.stdout.once('data', resolve));
    writer.kill('SIGKILL');
    await new Promise((resolve) => writer.once('exit', resolve));
    const [left] = await readdir(root);
    expect(left).toMatch(/^\.loop-state\.json\.\d+\..+\.tmp$/);
    const fs = createNodeFileSystem(root);
    await fs.writeText('loop-state.json', '{"ok":true}');
    expect(await fs.removeStaleTempFiles?.('.', { olderThanMs: 60_000 })).toEqual([]);
    const hourAgo = new Date(Date.now() - 3_600_000);
    await utimes(join(root, left ?? ''), hourAgo, hourAgo);
    expect(await fs.removeStaleTempFiles?.('.', { olderThanMs: 60_000 })).toEqual([left]);
    expect(await readdir(root)).toEqual(['loop-state.json']);
    await expect(fs.removeStaleTempFiles?.('.', { olderThanMs: Number.NaN })).rejects.toThrow(/olderThanMs/);
  });
});
