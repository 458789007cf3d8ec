import assert from 'node:assert/strict';
import { isGoalLoopError } from '../errors.js';
import type { ConformanceCase } from './file-system-conformance-cases-io.js';

// Whether an error is the port's IO_ERROR (a validator for assert.rejects).
const isIoError = (error: unknown): boolean => isGoalLoopError(error, 'IO_ERROR');

/**
 * The cases about the directory tree and faults: sorted lists, remove, rename,
 * mkdir, `IO_ERROR`, and symlinks (these return early, passing, when the
 * fixture has no `symlink`).
 *
 * @internal
 */
export const fileTreeCases: readonly ConformanceCase[] = [
  {
    name: 'lists entries sorted',
    async run({ fs }) {
      for (const path of ['b.txt', 'a.txt', 'C.txt', 'sub/x.txt']) await fs.writeText(`list/${path}`, path);
      assert.deepEqual(await fs.list('list'), ['C.txt', 'a.txt', 'b.txt', 'sub']);
      await fs.mkdir('empty');
      assert.deepEqual(await fs.list('empty'), []);
    },
  },
  {
    name: 'removes files and empty directories; missing is fine; a full directory is an IO_ERROR',
    async run({ fs }) {
      await fs.writeText('r/f.txt', 'x');
      await assert.rejects(fs.remove('r'), isIoError);
      await fs.remove('r/f.txt');
      assert.equal(await fs.stat('r/f.txt'), null);
      await fs.remove('r');
      assert.equal(await fs.stat('r'), null);
      await fs.remove('r');
      await fs.remove('never/there.txt');
    },
  },
  {
    name: 'renames, replacing the target, and moves directories with their content',
    async run({ fs }) {
      await fs.writeText('from.txt', 'new');
      await fs.writeText('to.txt', 'old');
      await fs.rename('from.txt', 'to.txt');
      assert.equal(await fs.readText('to.txt'), 'new');
      assert.equal(await fs.readText('from.txt'), null);
      await fs.writeText('tree/a/b.txt', 'deep');
      await fs.rename('tree', 'moved');
      assert.equal(await fs.readText('moved/a/b.txt'), 'deep');
      assert.equal(await fs.stat('tree'), null);
      await assert.rejects(fs.rename('absent.txt', 'x.txt'), isIoError);
    },
  },
  {
    name: 'makes directories recursively and idempotently',
    async run({ fs }) {
      await fs.mkdir('m/n/o');
      await fs.mkdir('m/n/o');
      assert.equal((await fs.stat('m/n/o'))?.type, 'directory');
      assert.deepEqual(await fs.list('m'), ['n']);
    },
  },
  {
    name: 'throws IO_ERROR for real faults',
    async run({ fs }) {
      await fs.writeText('plain.txt', 'x');
      await fs.mkdir('folder');
      await assert.rejects(fs.readText('folder'), isIoError);
      await assert.rejects(fs.writeText('plain.txt/child.txt', 'x'), isIoError);
      await assert.rejects(fs.mkdir('plain.txt'), isIoError);
    },
  },
  {
    name: 'resolves realpath relative to the root, through symlinks inside it',
    async run({ fs, symlink }) {
      if (symlink === undefined) return;
      await fs.writeText('real/dir/f.txt', 'through');
      await symlink('real/dir', 'link');
      await symlink('f.txt', 'real/dir/alias.txt');
      assert.equal(await fs.realpath('real/dir/f.txt'), 'real/dir/f.txt');
      assert.equal(await fs.realpath('.'), '.');
      assert.equal(await fs.realpath('link/f.txt'), 'real/dir/f.txt');
      assert.equal(await fs.realpath('link/alias.txt'), 'real/dir/f.txt');
      assert.equal(await fs.readText('link/alias.txt'), 'through');
      assert.equal((await fs.stat('link'))?.type, 'symlink');
      assert.equal((await fs.stat('link/f.txt'))?.type, 'file');
      assert.deepEqual(await fs.list('link'), ['alias.txt', 'f.txt']);
    },
  },
  {
    name: 'reports symlinks that escape the root or dangle',
    async run({ fs, symlink }) {
      if (symlink === undefined) return;
      await symlink('..', 'up');
      await symlink('nowhere.txt', 'dangling');
      assert.equal(await fs.realpath('up'), '..');
      assert.equal((await fs.stat('up'))?.type, 'symlink');
      assert.equal(await fs.realpath('dangling'), null);
      assert.equal((await fs.stat('dangling'))?.type, 'symlink');
      assert.equal(await fs.createExclusive('dangling', 'x'), false);
      await fs.remove('dangling');
      assert.equal(await fs.stat('dangling'), null);
    },
  },
];
