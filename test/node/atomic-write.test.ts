// Writes that the kernel takes in pieces: a short write continues where it stopped (writeText and appendText alike),
// and a write that makes no progress is an IO_ERROR that leaves the file as it was, never a loop that does not end.
import nodeFs from 'node:fs';
import { open, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isGoalLoopError } from '../../src/errors.js';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import { root, useFreshRoot } from './fs-root.js';

type Write = (buffer: Uint8Array, offset: number, length: number) => Promise<{ bytesWritten: number }>;

// Makes every FileHandle write and every writeSync take at most `limit` bytes (0: none) until the test ends.
async function limitWrites(limit: number): Promise<void> {
  const handle = await open(join(root, '.probe'), 'w');
  const prototype = Object.getPrototypeOf(handle) as { write: Write };
  await handle.close();
  const write = prototype.write;
  vi.spyOn(prototype, 'write').mockImplementation(function (this: unknown, buffer, offset, length) {
    return write.call(this, buffer, offset, Math.min(length, limit));
  });
  // Small writes are made with synchronous calls.
  const writeSync = nodeFs.writeSync as (fd: number, buffer: Uint8Array, offset: number, length: number) => number;
  vi.spyOn(nodeFs, 'writeSync').mockImplementation(((fd: number, buffer: Uint8Array, offset: number, length: number) =>
    writeSync(fd, buffer, offset, Math.min(length, limit))) as typeof nodeFs.writeSync);
}

describe('the Node filesystem under short writes', () => {
  useFreshRoot();
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('writes and appends every byte when each write call takes only 780 of them', async () => {
    await limitWrites(780);
    const fs = createNodeFileSystem(root);
    const text = `${'é€😀 line\n'.repeat(2000)}end`;
    await fs.writeText('big.txt', text);
    await fs.appendText('log.jsonl', text);
    await fs.appendText('log.jsonl', '{"next":1}\n');
    expect(await readFile(join(root, 'big.txt'), 'utf8')).toBe(text);
    expect(await readFile(join(root, 'log.jsonl'), 'utf8')).toBe(`${text}{"next":1}\n`);
  });

  it('fails a write that makes no progress with an IO_ERROR, keeping the file and leaving no temp file', async () => {
    const fs = createNodeFileSystem(root);
    await fs.writeText('state.json', '{"kept":true}');
    await limitWrites(0);
    const error = await fs.writeText('state.json', '{"kept":false}').catch((caught: unknown) => caught);
    expect(isGoalLoopError(error) && error.code === 'IO_ERROR' && error.message).toBe('write "state.json" failed: EIO');
    const appended = await fs.appendText('state.json', 'x').catch((caught: unknown) => caught);
    expect(isGoalLoopError(appended) && appended.message).toBe('append "state.json" failed: EIO');
    vi.restoreAllMocks();
    expect(await readFile(join(root, 'state.json'), 'utf8')).toBe('{"kept":true}');
    expect((await readdir(root)).sort()).toEqual(['.probe', 'state.json']);
  });
});

describe('an exclusive create on the Node filesystem', () => {
  useFreshRoot();
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('makes the file appear whole or not at all: a failed write leaves no file and no temp file', async () => {
    const fs = createNodeFileSystem(root);
    await limitWrites(0);
    const error = await fs.createExclusive('run/loop.lock', '{"owner":"a"}\n').catch((caught: unknown) => caught);
    expect(isGoalLoopError(error) && error.message).toBe('create "run/loop.lock" failed: EIO');
    vi.restoreAllMocks();
    expect(await readdir(join(root, 'run'))).toEqual([]);
    expect(await fs.createExclusive('run/loop.lock', '{"owner":"a"}\n')).toBe(true);
    expect(await fs.createExclusive('run/loop.lock', '{"owner":"b"}\n')).toBe(false);
    expect(await readFile(join(root, 'run/loop.lock'), 'utf8')).toBe('{"owner":"a"}\n');
    expect(await readdir(join(root, 'run'))).toEqual(['loop.lock']);
  });
});
