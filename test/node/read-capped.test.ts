import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isGoalLoopError } from '../../src/errors.js';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import { SYNC_BYTES_PER_TURN, SYNC_READ_BYTES } from '../../src/node/read-capped.js';

// Which settles first: the read, or a callback of the event loop's next check phase (after any I/O it polls).
async function firstOf(read: Promise<unknown>): Promise<'read' | 'event loop'> {
  const turn = new Promise<'event loop'>((resolve) => setImmediate(() => resolve('event loop')));
  return Promise.race([read.then(() => 'read' as const), turn]);
}

describe('readText of the Node filesystem', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'goal-loop-read-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('reads a small file with synchronous calls: settled before the event loop turns', async () => {
    const fs = createNodeFileSystem(root);
    await writeFile(join(root, 'feedback.json'), '{"summary":{"score":97}}');
    // The largest file read synchronously: one byte under SYNC_READ_BYTES, its last character two bytes wide.
    const edge = `${'é'.repeat(SYNC_READ_BYTES / 2 - 1)}x`;
    expect(Buffer.byteLength(edge)).toBe(SYNC_READ_BYTES - 1);
    await writeFile(join(root, 'edge.json'), edge);
    expect(await firstOf(fs.readText('feedback.json'))).toBe('read');
    expect(await firstOf(fs.readText('edge.json'))).toBe('read');
    expect(await fs.readText('edge.json')).toBe(edge);
  });

  it('reads a file over 1 MiB asynchronously, whole and in order', async () => {
    const fs = createNodeFileSystem(root);
    const text = Array.from({ length: 60_000 }, (_, index) => `{"id":"TC-${index}"}`).join('\n');
    expect(Buffer.byteLength(text)).toBeGreaterThan(SYNC_READ_BYTES);
    await writeFile(join(root, 'cases.jsonl'), text);
    const read = fs.readText('cases.jsonl');
    expect(await firstOf(read)).toBe('event loop');
    expect(await read).toBe(text);
  });

  it('reads past the size fstat gave (a file that grew), and refuses it once it passes the cap', async () => {
    // procfs files report size 0 and hold text: the read goes on past the size it was told.
    await symlink('/proc/self/status', join(root, 'status'));
    const fs = createNodeFileSystem(root, { maxReadBytes: 100_000 });
    expect(await fs.readText('status')).toMatch(/^Name:\t.*\n[\s\S]*Pid:\t\d+\n/);
    const capped = createNodeFileSystem(root, { maxReadBytes: 100 });
    const error = await capped.readText('status').catch((caught: unknown) => caught);
    expect(isGoalLoopError(error, 'IO_ERROR')).toBe(true);
    expect((error as Error).message).toContain('"status" failed: EFBIG: the file holds more than 100 bytes');
  });

  it('lets the event loop turn once a run of synchronous reads passes SYNC_BYTES_PER_TURN', async () => {
    const fs = createNodeFileSystem(root);
    const size = 900 * 1024;
    const fits = Math.floor(SYNC_BYTES_PER_TURN / size);
    for (let index = 0; index <= fits + 1; index++) await writeFile(join(root, `part-${index}.json`), 'x'.repeat(size));
    const order: string[] = [];
    for (let index = 0; index <= fits + 1; index++) order.push(await firstOf(fs.readText(`part-${index}.json`)));
    // The reads that fit are settled at once; the next waits for a turn of the loop, after which reads are at once again.
    expect(order).toEqual([...Array(fits).fill('read'), 'event loop', 'read']);
  });

  it.skipIf(!existsSync('/proc/self/status'))(
    'counts a file whose size reads as 0 as the most a synchronous read takes, toward the per-turn budget',
    async () => {
      await symlink('/proc/self/status', join(root, 'status'));
      const fs = createNodeFileSystem(root);
      const fits = SYNC_BYTES_PER_TURN / SYNC_READ_BYTES;
      const order: string[] = [];
      for (let index = 0; index <= fits; index++) order.push(await firstOf(fs.readText('status')));
      expect(order).toEqual([...Array(fits).fill('read'), 'event loop']);
    },
  );

  it.skipIf(!existsSync('/proc/sys/kernel/pid_max'))(
    'reads a /proc/sys file whole: it gives nothing to a read past its start',
    async () => {
      await symlink('/proc/sys/kernel/pid_max', join(root, 'pid_max'));
      expect(await createNodeFileSystem(root).readText('pid_max')).toBe(
        readFileSync('/proc/sys/kernel/pid_max', 'utf8'),
      );
    },
  );

  it.skipIf(!existsSync('/proc/kallsyms'))(
    'reads a procfs file to its end: it says its size is 0 and gives a page per read',
    async () => {
      await symlink('/proc/kallsyms', join(root, 'symbols'));
      const text = await createNodeFileSystem(root).readText('symbols');
      // The kernel's symbol table (the same lines read twice, unless a module is loaded in between).
      expect(text?.split('\n').length).toBe(readFileSync('/proc/kallsyms', 'utf8').split('\n').length);
      expect(text?.length).toBeGreaterThan(SYNC_READ_BYTES);
    },
  );

  it('closes every descriptor it opens, on both paths, read or refused', async () => {
    const fs = createNodeFileSystem(root, { maxReadBytes: 2 * SYNC_READ_BYTES });
    await writeFile(join(root, 'small.json'), '{}');
    await writeFile(join(root, 'large.json'), 'x'.repeat(SYNC_READ_BYTES + 1));
    await writeFile(join(root, 'bad-small.json'), Buffer.from([0xff]));
    await writeFile(join(root, 'bad-large.json'), Buffer.alloc(SYNC_READ_BYTES + 1, 0xff));
    await writeFile(join(root, 'huge.json'), Buffer.alloc(2 * SYNC_READ_BYTES + 1));
    await symlink('/dev/null', join(root, 'device'));
    const open = (): number => readdirSync('/proc/self/fd').length;
    const before = open();
    for (let round = 0; round < 20; round++)
      for (const name of ['small.json', 'large.json', 'bad-small.json', 'bad-large.json', 'huge.json', 'device'])
        await fs.readText(name).catch(() => null);
    expect(open()).toBe(before);
  });

  it("refuses a FIFO at the path itself (by its lstat) and one behind a symlink (by the descriptor's fstat)", async () => {
    const fs = createNodeFileSystem(root);
    execFileSync('mkfifo', [join(root, 'pipe')]);
    await symlink('pipe', join(root, 'link-to-pipe'));
    await expect(fs.readText('pipe')).rejects.toThrow('"pipe" failed: ENOTREG: it is a FIFO');
    await expect(fs.readText('link-to-pipe')).rejects.toThrow('"link-to-pipe" failed: ENOTREG: it is a FIFO');
  });

  it('refuses bytes that are not UTF-8 on both paths, naming the offset', async () => {
    const fs = createNodeFileSystem(root);
    await writeFile(join(root, 'small.json'), Buffer.from([0x7b, 0xff, 0x7d]));
    await writeFile(
      join(root, 'large.json'),
      Buffer.concat([Buffer.alloc(SYNC_READ_BYTES + 5, 0x20), Buffer.from([0xc3])]),
    );
    await expect(fs.readText('small.json')).rejects.toThrow(/EILSEQ.*byte offset 1 /);
    await expect(fs.readText('large.json')).rejects.toThrow(new RegExp(`EILSEQ.*byte offset ${SYNC_READ_BYTES + 5} `));
  });
});
