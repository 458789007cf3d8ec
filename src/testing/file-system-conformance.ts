import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isGoalLoopError } from '../errors.js';
import type { FileSystem } from '../ports/file-system.js';

/**
 * What the factory of {@link describeFileSystemConformance} gives each test: a
 * fresh, empty filesystem, a way to make symlinks (symlink tests are skipped
 * without one) and a cleanup.
 *
 * @public
 */
export interface FileSystemFixture {
  readonly fs: FileSystem;
  /** Creates a symlink at `path` (relative to the root) pointing to `target` (relative to the link's directory). */
  readonly symlink?: (target: string, path: string) => Promise<void>;
  readonly cleanup?: () => Promise<void>;
}

/**
 * Registers a vitest `describe` block that holds a {@link FileSystem}
 * implementation to the port's contract: missing is `null`, atomic replace,
 * ordered appends, exclusive create, lstat types, realpath through symlinks
 * (inside and escaping), sorted lists, remove, rename, mkdir, byte ranges,
 * UTF-8 round trips, parents created, and `IO_ERROR` on real faults. Call it
 * from a test file; the factory runs before every test.
 *
 * @example
 * ```ts
 * import { describeFileSystemConformance, createMemoryFileSystem } from 'goal-loop/testing';
 * describeFileSystemConformance('memory', async () => {
 *   const fs = createMemoryFileSystem();
 *   return { fs, symlink: fs.symlink };
 * });
 * ```
 * @public
 */
export function describeFileSystemConformance(name: string, factory: () => Promise<FileSystemFixture>): void {
  describe(`FileSystem conformance: ${name}`, () => {
    let fixture: FileSystemFixture;
    let fs: FileSystem;
    beforeEach(async () => {
      fixture = await factory();
      fs = fixture.fs;
    });
    afterEach(async () => {
      await fixture.cleanup?.();
    });
    // Returns the fixture's symlink maker, skipping the test when it has none.
    const symlinkOrSkip = (skip: (note?: string) => never): NonNullable<FileSystemFixture['symlink']> =>
      fixture.symlink ?? skip('the fixture provides no symlink()');

    it('reports a missing path as null from every reader', async () => {
      await fs.writeText('file.txt', 'x');
      expect(await fs.readText('missing.txt')).toBeNull();
      expect(await fs.readText('file.txt/below')).toBeNull();
      expect(await fs.readBytes('missing.txt', 0, 4)).toBeNull();
      expect(await fs.stat('missing/deeper')).toBeNull();
      expect(await fs.realpath('missing')).toBeNull();
      expect(await fs.list('missing')).toBeNull();
      expect(await fs.list('file.txt')).toBeNull();
    });

    it('writes text, creating parents, and replaces it atomically without leftovers', async () => {
      await fs.writeText('a/b/c.json', '{"v":1}');
      await fs.writeText('a/b/c.json', '{"v":2}');
      expect(await fs.readText('a/b/c.json')).toBe('{"v":2}');
      expect(await fs.list('a/b')).toEqual(['c.json']);
      expect(await fs.readText(`${fs.root}/a/b/c.json`)).toBe('{"v":2}');
    });

    it('round-trips multibyte UTF-8 text and counts its size in bytes', async () => {
      const text = 'héllo — 世界 🚀\n';
      await fs.writeText('utf8.txt', text);
      expect(await fs.readText('utf8.txt')).toBe(text);
      const bytes = new TextEncoder().encode(text);
      expect((await fs.stat('utf8.txt'))?.size).toBe(bytes.length);
      expect(Array.from((await fs.readBytes('utf8.txt', 0, 1024)) ?? [])).toEqual(Array.from(bytes));
    });

    it('reads byte ranges, truncated at the end and empty past it', async () => {
      await fs.writeText('bytes.txt', '0123456789');
      const read = async (position: number, length: number) => new TextDecoder().decode((await fs.readBytes('bytes.txt', position, length)) ?? undefined);
      expect(await read(0, 3)).toBe('012');
      expect(await read(7, 100)).toBe('789');
      expect(await read(10, 5)).toBe('');
      expect(await read(50, 5)).toBe('');
      expect(await read(3, 0)).toBe('');
    });

    it('appends in order, creating the file and its parents', async () => {
      await fs.appendText('logs/events.jsonl', '{"n":1}\n');
      await fs.appendText('logs/events.jsonl', '{"n":2}\n');
      await Promise.all([3, 4, 5].map((n) => fs.appendText('logs/events.jsonl', `{"n":${n}}\n`)));
      const lines = (await fs.readText('logs/events.jsonl'))?.trimEnd().split('\n') ?? [];
      expect(lines.slice(0, 2)).toEqual(['{"n":1}', '{"n":2}']);
      expect([...lines].sort()).toEqual(['{"n":1}', '{"n":2}', '{"n":3}', '{"n":4}', '{"n":5}']);
    });

    it('creates exclusively: true once, then false, keeping the first content', async () => {
      expect(await fs.createExclusive('locks/run.lock', 'first')).toBe(true);
      expect(await fs.createExclusive('locks/run.lock', 'second')).toBe(false);
      expect(await fs.readText('locks/run.lock')).toBe('first');
      await fs.mkdir('locks/dir');
      expect(await fs.createExclusive('locks/dir', 'x')).toBe(false);
    });

    it('stats files and directories', async () => {
      await fs.writeText('d/f.txt', 'abc');
      const file = await fs.stat('d/f.txt');
      expect(file).toMatchObject({ type: 'file', size: 3 });
      expect(typeof file?.mtimeMs).toBe('number');
      expect((await fs.stat('d'))?.type).toBe('directory');
      expect((await fs.stat('.'))?.type).toBe('directory');
    });

    it('lists entries sorted', async () => {
      for (const path of ['b.txt', 'a.txt', 'C.txt', 'sub/x.txt']) await fs.writeText(`list/${path}`, path);
      expect(await fs.list('list')).toEqual(['C.txt', 'a.txt', 'b.txt', 'sub']);
      await fs.mkdir('empty');
      expect(await fs.list('empty')).toEqual([]);
    });

    it('removes files and empty directories; missing is fine; a full directory is an IO_ERROR', async () => {
      await fs.writeText('r/f.txt', 'x');
      await expect(fs.remove('r')).rejects.toSatisfy((error: unknown) => isGoalLoopError(error, 'IO_ERROR'));
      await fs.remove('r/f.txt');
      expect(await fs.stat('r/f.txt')).toBeNull();
      await fs.remove('r');
      expect(await fs.stat('r')).toBeNull();
      await fs.remove('r');
      await fs.remove('never/there.txt');
    });

    it('renames, replacing the target, and moves directories with their content', async () => {
      await fs.writeText('from.txt', 'new');
      await fs.writeText('to.txt', 'old');
      await fs.rename('from.txt', 'to.txt');
      expect(await fs.readText('to.txt')).toBe('new');
      expect(await fs.readText('from.txt')).toBeNull();
      await fs.writeText('tree/a/b.txt', 'deep');
      await fs.rename('tree', 'moved');
      expect(await fs.readText('moved/a/b.txt')).toBe('deep');
      expect(await fs.stat('tree')).toBeNull();
      await expect(fs.rename('absent.txt', 'x.txt')).rejects.toSatisfy((error: unknown) => isGoalLoopError(error, 'IO_ERROR'));
    });

    it('makes directories recursively and idempotently', async () => {
      await fs.mkdir('m/n/o');
      await fs.mkdir('m/n/o');
      expect((await fs.stat('m/n/o'))?.type).toBe('directory');
      expect(await fs.list('m')).toEqual(['n']);
    });

    it('throws IO_ERROR for real faults', async () => {
      await fs.writeText('plain.txt', 'x');
      await fs.mkdir('folder');
      const isIoError = (error: unknown) => isGoalLoopError(error, 'IO_ERROR');
      await expect(fs.readText('folder')).rejects.toSatisfy(isIoError);
      await expect(fs.writeText('plain.txt/child.txt', 'x')).rejects.toSatisfy(isIoError);
      await expect(fs.mkdir('plain.txt')).rejects.toSatisfy(isIoError);
    });

    it('resolves realpath relative to the root, through symlinks inside it', async ({ skip }) => {
      const symlink = symlinkOrSkip(skip);
      await fs.writeText('real/dir/f.txt', 'through');
      await symlink('real/dir', 'link');
      await symlink('f.txt', 'real/dir/alias.txt');
      expect(await fs.realpath('real/dir/f.txt')).toBe('real/dir/f.txt');
      expect(await fs.realpath('.')).toBe('.');
      expect(await fs.realpath('link/f.txt')).toBe('real/dir/f.txt');
      expect(await fs.realpath('link/alias.txt')).toBe('real/dir/f.txt');
      expect(await fs.readText('link/alias.txt')).toBe('through');
      expect((await fs.stat('link'))?.type).toBe('symlink');
      expect((await fs.stat('link/f.txt'))?.type).toBe('file');
      expect(await fs.list('link')).toEqual(['alias.txt', 'f.txt']);
    });

    it('reports symlinks that escape the root or dangle', async ({ skip }) => {
      const symlink = symlinkOrSkip(skip);
      await symlink('..', 'up');
      await symlink('nowhere.txt', 'dangling');
      expect(await fs.realpath('up')).toBe('..');
      expect((await fs.stat('up'))?.type).toBe('symlink');
      expect(await fs.realpath('dangling')).toBeNull();
      expect((await fs.stat('dangling'))?.type).toBe('symlink');
      expect(await fs.createExclusive('dangling', 'x')).toBe(false);
      await fs.remove('dangling');
      expect(await fs.stat('dangling')).toBeNull();
    });
  });
}
