import { execFileSync, spawn } from 'node:child_process';
import { readdir, symlink, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isGoalLoopError } from '../../src/errors.js';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import { mkfifo, root, settle, useFreshRoot } from './fs-root.js';

// Files a run directory may hold that must not be read as they are: a FIFO, a device, a file past the read cap, and
// the temp file of an atomic write killed midway.

describe('createNodeFileSystem', () => {
  useFreshRoot();

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
