import assert from 'node:assert/strict';
import type { FileSystemFixture } from './file-system-fixture.js';

/**
 * One conformance case: a name and a check that throws (an `AssertionError`
 * or the filesystem's own error) when the fixture's filesystem breaks the
 * contract.
 *
 * @internal
 */
export interface ConformanceCase {
  readonly name: string;
  run(fixture: FileSystemFixture): Promise<void>;
}

/**
 * The cases about reading and writing file content: missing is `null`, atomic
 * replace, UTF-8, byte ranges, appends, exclusive create and stat.
 *
 * @internal
 */
export const fileContentCases: readonly ConformanceCase[] = [
  {
    name: 'reports a missing path as null from every reader',
    async run({ fs }) {
      await fs.writeText('file.txt', 'x');
      assert.equal(await fs.readText('missing.txt'), null);
      assert.equal(await fs.readText('file.txt/below'), null);
      assert.equal(await fs.readBytes('missing.txt', 0, 4), null);
      assert.equal(await fs.stat('missing/deeper'), null);
      assert.equal(await fs.realpath('missing'), null);
      assert.equal(await fs.list('missing'), null);
      assert.equal(await fs.list('file.txt'), null);
    },
  },
  {
    name: 'writes text, creating parents, and replaces it atomically without leftovers',
    async run({ fs }) {
      await fs.writeText('a/b/c.json', '{"v":1}');
      await fs.writeText('a/b/c.json', '{"v":2}');
      assert.equal(await fs.readText('a/b/c.json'), '{"v":2}');
      assert.deepEqual(await fs.list('a/b'), ['c.json']);
      assert.equal(await fs.readText(`${fs.root}/a/b/c.json`), '{"v":2}');
    },
  },
  {
    name: 'round-trips multibyte UTF-8 text and counts its size in bytes',
    async run({ fs }) {
      const text = 'héllo — 世界 🚀\n';
      await fs.writeText('utf8.txt', text);
      assert.equal(await fs.readText('utf8.txt'), text);
      const bytes = new TextEncoder().encode(text);
      assert.equal((await fs.stat('utf8.txt'))?.size, bytes.length);
      assert.deepEqual(Array.from((await fs.readBytes('utf8.txt', 0, 1024)) ?? []), Array.from(bytes));
    },
  },
  {
    name: 'reads byte ranges, truncated at the end and empty past it',
    async run({ fs }) {
      await fs.writeText('bytes.txt', '0123456789');
      const read = async (position: number, length: number) =>
        new TextDecoder().decode((await fs.readBytes('bytes.txt', position, length)) ?? undefined);
      assert.equal(await read(0, 3), '012');
      assert.equal(await read(7, 100), '789');
      assert.equal(await read(10, 5), '');
      assert.equal(await read(50, 5), '');
      assert.equal(await read(3, 0), '');
    },
  },
  {
    name: 'appends in order, creating the file and its parents',
    async run({ fs }) {
      await fs.appendText('logs/events.jsonl', '{"n":1}\n');
      await fs.appendText('logs/events.jsonl', '{"n":2}\n');
      await Promise.all([3, 4, 5].map((n) => fs.appendText('logs/events.jsonl', `{"n":${n}}\n`)));
      const lines = (await fs.readText('logs/events.jsonl'))?.trimEnd().split('\n') ?? [];
      assert.deepEqual(lines.slice(0, 2), ['{"n":1}', '{"n":2}']);
      assert.deepEqual([...lines].sort(), ['{"n":1}', '{"n":2}', '{"n":3}', '{"n":4}', '{"n":5}']);
    },
  },
  {
    name: 'creates exclusively: true once, then false, keeping the first content',
    async run({ fs }) {
      assert.equal(await fs.createExclusive('locks/run.lock', 'first'), true);
      assert.equal(await fs.createExclusive('locks/run.lock', 'second'), false);
      assert.equal(await fs.readText('locks/run.lock'), 'first');
      await fs.mkdir('locks/dir');
      assert.equal(await fs.createExclusive('locks/dir', 'x'), false);
    },
  },
  {
    name: 'stats files and directories',
    async run({ fs }) {
      await fs.writeText('d/f.txt', 'abc');
      const file = await fs.stat('d/f.txt');
      assert.equal(file?.type, 'file');
      assert.equal(file.size, 3);
      assert.equal(typeof file.mtimeMs, 'number');
      assert.equal((await fs.stat('d'))?.type, 'directory');
      assert.equal((await fs.stat('.'))?.type, 'directory');
    },
  },
];
