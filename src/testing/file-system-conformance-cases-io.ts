import { expectEqual } from './conformance-check.js';
import type { FileSystemFixture } from './file-system-fixture.js';

/** One conformance case. @internal */
export interface ConformanceCase {
  readonly name: string;
  run(fixture: FileSystemFixture): Promise<void>;
}

/** The cases about reading and writing file content. @internal */
export const fileContentCases: readonly ConformanceCase[] = [
  {
    name: 'reports a missing path as null from every reader',
    async run({ fs }) {
      await fs.writeText('file.txt', 'x');
      expectEqual(await fs.readText('missing.txt'), null, 'readText of a missing file is null');
      expectEqual(await fs.readText('file.txt/below'), null, 'readText below a file is null (the path cannot exist)');
      expectEqual(await fs.readBytes('missing.txt', 0, 4), null, 'readBytes of a missing file is null');
      expectEqual(await fs.stat('missing/deeper'), null, 'stat of a missing path is null');
      expectEqual(await fs.realpath('missing'), null, 'realpath of a missing path is null');
      expectEqual(await fs.list('missing'), null, 'list of a missing directory is null');
      expectEqual(await fs.list('file.txt'), null, 'list of a file (not a directory) is null');
    },
  },
  {
    name: 'writes text, creating parents, and replaces it atomically without leftovers',
    async run({ fs }) {
      await fs.writeText('a/b/c.json', '{"v":1}');
      await fs.writeText('a/b/c.json', '{"v":2}');
      expectEqual(await fs.readText('a/b/c.json'), '{"v":2}', 'writeText replaces the content with the last write');
      expectEqual(await fs.list('a/b'), ['c.json'], 'writeText leaves no temp file beside the target');
      expectEqual(
        await fs.readText(`${fs.root}/a/b/c.json`),
        '{"v":2}',
        'an absolute path under the root reads the same file as its relative path',
      );
    },
  },
  {
    name: 'round-trips multibyte UTF-8 text and counts its size in bytes',
    async run({ fs }) {
      const text = 'héllo — 世界 🚀\n';
      await fs.writeText('utf8.txt', text);
      expectEqual(await fs.readText('utf8.txt'), text, 'multibyte UTF-8 text reads back as written');
      const bytes = new TextEncoder().encode(text);
      expectEqual((await fs.stat('utf8.txt'))?.size, bytes.length, 'stat size counts UTF-8 bytes, not characters');
      expectEqual(
        Array.from((await fs.readBytes('utf8.txt', 0, 1024)) ?? []),
        Array.from(bytes),
        'readBytes returns the UTF-8 encoding of the text written',
      );
    },
  },
  {
    name: 'reads byte ranges, truncated at the end and empty past it',
    async run({ fs }) {
      await fs.writeText('bytes.txt', '0123456789');
      const read = async (position: number, length: number) =>
        new TextDecoder().decode((await fs.readBytes('bytes.txt', position, length)) ?? undefined);
      expectEqual(await read(0, 3), '012', 'readBytes(0, 3) is the first three bytes');
      expectEqual(await read(7, 100), '789', 'readBytes past the end stops at the end');
      expectEqual(await read(10, 5), '', 'readBytes at the end is empty');
      expectEqual(await read(50, 5), '', 'readBytes beyond the end is empty, not an error');
      expectEqual(await read(3, 0), '', 'readBytes of length 0 is empty');
    },
  },
  {
    name: 'appends in order, creating the file and its parents',
    async run({ fs }) {
      await fs.appendText('logs/events.jsonl', '{"n":1}\n');
      await fs.appendText('logs/events.jsonl', '{"n":2}\n');
      await Promise.all([3, 4, 5].map((n) => fs.appendText('logs/events.jsonl', `{"n":${n}}\n`)));
      const lines = (await fs.readText('logs/events.jsonl'))?.trimEnd().split('\n') ?? [];
      expectEqual(lines.slice(0, 2), ['{"n":1}', '{"n":2}'], 'sequential appends keep their order');
      expectEqual(
        [...lines].sort(),
        ['{"n":1}', '{"n":2}', '{"n":3}', '{"n":4}', '{"n":5}'],
        'concurrent appends each land whole, none lost or interleaved',
      );
    },
  },
  {
    name: 'creates exclusively: true once, then false, keeping the first content',
    async run({ fs }) {
      expectEqual(await fs.createExclusive('locks/run.lock', 'first'), true, 'createExclusive of a new file is true');
      expectEqual(
        await fs.createExclusive('locks/run.lock', 'second'),
        false,
        'createExclusive of an existing file is false',
      );
      expectEqual(await fs.readText('locks/run.lock'), 'first', 'a refused createExclusive keeps the first content');
      await fs.mkdir('locks/dir');
      expectEqual(await fs.createExclusive('locks/dir', 'x'), false, 'createExclusive over a directory is false');
    },
  },
  {
    name: 'stats files and directories',
    async run({ fs }) {
      await fs.writeText('d/f.txt', 'abc');
      const file = await fs.stat('d/f.txt');
      expectEqual(file?.type, 'file', 'stat of a file says type "file"');
      expectEqual(file?.size, 3, 'stat of a file gives its size in bytes');
      expectEqual(typeof file?.mtimeMs, 'number', 'stat gives mtimeMs as a number');
      expectEqual((await fs.stat('d'))?.type, 'directory', 'stat of a directory says type "directory"');
      expectEqual((await fs.stat('.'))?.type, 'directory', 'stat of the root "." says type "directory"');
    },
  },
];
