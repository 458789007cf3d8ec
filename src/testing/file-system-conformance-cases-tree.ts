import { expectEqual, expectRejection } from './conformance-check.js';
import type { ConformanceCase } from './file-system-conformance-cases-io.js';

/** The cases about the directory tree and faults. @internal */
export const fileTreeCases: readonly ConformanceCase[] = [
  {
    name: 'lists entries sorted',
    async run({ fs }) {
      for (const path of ['b.txt', 'a.txt', 'C.txt', 'sub/x.txt']) await fs.writeText(`list/${path}`, path);
      expectEqual(
        await fs.list('list'),
        ['C.txt', 'a.txt', 'b.txt', 'sub'],
        'list gives entry names sorted by code unit, directories included',
      );
      await fs.mkdir('empty');
      expectEqual(await fs.list('empty'), [], 'list of an empty directory is []');
    },
  },
  {
    name: 'removes files and empty directories; missing is fine; a full directory is an IO_ERROR',
    async run({ fs }) {
      await fs.writeText('r/f.txt', 'x');
      await expectRejection(fs.remove('r'), 'IO_ERROR', 'remove of a directory that is not empty throws IO_ERROR');
      await fs.remove('r/f.txt');
      expectEqual(await fs.stat('r/f.txt'), null, 'remove deletes a file');
      await fs.remove('r');
      expectEqual(await fs.stat('r'), null, 'remove deletes an empty directory');
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
      expectEqual(await fs.readText('to.txt'), 'new', 'rename replaces an existing target');
      expectEqual(await fs.readText('from.txt'), null, 'rename leaves nothing at the source');
      await fs.writeText('tree/a/b.txt', 'deep');
      await fs.rename('tree', 'moved');
      expectEqual(await fs.readText('moved/a/b.txt'), 'deep', 'rename of a directory moves its content');
      expectEqual(await fs.stat('tree'), null, 'a renamed directory is gone from its old path');
      await expectRejection(fs.rename('absent.txt', 'x.txt'), 'IO_ERROR', 'rename of a missing source throws IO_ERROR');
    },
  },
  {
    name: 'makes directories recursively and idempotently',
    async run({ fs }) {
      await fs.mkdir('m/n/o');
      await fs.mkdir('m/n/o');
      expectEqual((await fs.stat('m/n/o'))?.type, 'directory', 'mkdir creates every missing parent');
      expectEqual(await fs.list('m'), ['n'], 'mkdir of an existing directory changes nothing');
    },
  },
  {
    name: 'throws IO_ERROR for real faults',
    async run({ fs }) {
      await fs.writeText('plain.txt', 'x');
      await fs.mkdir('folder');
      await expectRejection(fs.readText('folder'), 'IO_ERROR', 'readText of a directory throws IO_ERROR');
      await expectRejection(
        fs.writeText('plain.txt/child.txt', 'x'),
        'IO_ERROR',
        'writeText below a file throws IO_ERROR',
      );
      await expectRejection(fs.mkdir('plain.txt'), 'IO_ERROR', 'mkdir over a file throws IO_ERROR');
    },
  },
  {
    name: 'resolves realpath relative to the root, through symlinks inside it',
    async run({ fs, symlink }) {
      if (symlink === undefined) return;
      await fs.writeText('real/dir/f.txt', 'through');
      await symlink('real/dir', 'link');
      await symlink('f.txt', 'real/dir/alias.txt');
      expectEqual(await fs.realpath('real/dir/f.txt'), 'real/dir/f.txt', 'realpath of a plain path is itself');
      expectEqual(await fs.realpath('.'), '.', 'realpath of the root is "."');
      expectEqual(await fs.realpath('link/f.txt'), 'real/dir/f.txt', 'realpath resolves a directory symlink');
      expectEqual(await fs.realpath('link/alias.txt'), 'real/dir/f.txt', 'realpath resolves chained symlinks');
      expectEqual(await fs.readText('link/alias.txt'), 'through', 'readText follows symlinks');
      expectEqual((await fs.stat('link'))?.type, 'symlink', 'stat does not follow a final symlink');
      expectEqual((await fs.stat('link/f.txt'))?.type, 'file', 'stat follows symlinks before the last segment');
      expectEqual(await fs.list('link'), ['alias.txt', 'f.txt'], 'list follows a directory symlink');
    },
  },
  {
    name: 'reports symlinks that escape the root or dangle',
    async run({ fs, symlink }) {
      if (symlink === undefined) return;
      await symlink('..', 'up');
      await symlink('nowhere.txt', 'dangling');
      expectEqual(
        await fs.realpath('up'),
        '..',
        'realpath of a symlink escaping the root is its path relative to the root',
      );
      expectEqual((await fs.stat('up'))?.type, 'symlink', 'stat of an escaping symlink says "symlink"');
      expectEqual(await fs.realpath('dangling'), null, 'realpath of a dangling symlink is null');
      expectEqual((await fs.stat('dangling'))?.type, 'symlink', 'stat of a dangling symlink says "symlink"');
      expectEqual(
        await fs.createExclusive('dangling', 'x'),
        false,
        'createExclusive never writes through a dangling symlink',
      );
      await fs.remove('dangling');
      expectEqual(await fs.stat('dangling'), null, 'remove deletes a symlink itself');
    },
  },
];
