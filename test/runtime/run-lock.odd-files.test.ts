import { execFileSync } from 'node:child_process';
import { mkdir, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOCK_RECORD_MAX_BYTES } from '../../src/runtime/lock-file.js';
import { readLockStatus } from '../../src/runtime/lock-status.js';
import { RunLock } from '../../src/runtime/run-lock.js';
import type { MemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { DATED_FILE_SYSTEMS, type DatedFs, NOW_S } from './dated-fs.js';
import { LOCK, lockText } from './lock-fixtures.js';

// Odd things at a lock path. A regular file that cannot be read as a lock record (longer than any record, not UTF-8,
// not JSON) was never a holder's and is taken over at once; anything else at the lock path (a directory, a FIFO) is an
// IO_ERROR naming it and saying to remove it, and readLockStatus says the same as an issue.

const TIMEOUT = 600_000;
// A record that, were it read, would be taken over at once (its heartbeat is at the epoch).
const ANCIENT = lockText({ pid: null, host: null, heartbeat_at: 0, timeout_ms: 1 });
const padded = (text: string, bytes: number) => text + ' '.repeat(bytes - Buffer.byteLength(text));

describe.each(DATED_FILE_SYSTEMS)('odd files at the lock path, on the $name filesystem', ({ make }) => {
  let t: DatedFs;
  const lock = (owner = 'b') => new RunLock(t.fs, LOCK, t.clock, owner, TIMEOUT);
  beforeEach(async () => {
    t = await make();
  });
  afterEach(() => t.dispose());

  it('a directory: IO_ERROR naming it and saying to remove it, never removed; the status says so', async () => {
    await t.fs.mkdir(LOCK);
    await expect(lock().acquire()).rejects.toMatchObject({
      code: 'IO_ERROR',
      message:
        'run/loop.lock is a directory, not a lock file. goal-loop only ever writes a regular file there and never ' +
        'replaces or removes anything else: remove it by hand (no loop can take this run until then).',
    });
    expect((await t.fs.stat(LOCK))?.type).toBe('directory');
    expect(await readLockStatus(t.fs, LOCK, NOW_S)).toEqual({
      lock: expect.objectContaining({ owner: 'unknown (unreadable lock file)', heartbeatAgeMs: null }),
      issues: [{ code: 'unreadable', path: [], message: expect.stringMatching(/^loop\.lock is a directory, not a/) }],
    });
    await t.fs.remove(LOCK);
    expect(await lock().acquire()).toBeNull();
  });

  it('a symlink to nothing: IO_ERROR naming it and saying to remove it (no loop could ever create the lock); the status says so', async () => {
    if (t.name === 'memory') await (t.fs as MemoryFileSystem).symlink('nowhere', LOCK);
    else {
      await t.fs.mkdir('run');
      const { symlink } = await import('node:fs/promises');
      await symlink('nowhere', join(t.fs.root, LOCK));
    }
    await expect(lock().acquire()).rejects.toMatchObject({
      code: 'IO_ERROR',
      message: expect.stringMatching(
        /^run\/loop\.lock is a symlink to nothing \(its target is gone\), not a lock file\./,
      ),
    });
    expect(await readLockStatus(t.fs, LOCK, NOW_S)).toMatchObject({
      issues: [{ code: 'unreadable', message: expect.stringContaining('a symlink to nothing') }],
    });
  });

  it('a FIFO: IO_ERROR naming it and saying to remove it', async () => {
    const { fs } = t;
    if (t.name === 'memory') await (fs as MemoryFileSystem).mkfifo(LOCK);
    else {
      await fs.mkdir('run');
      execFileSync('mkfifo', [join(fs.root, LOCK)]);
    }
    await expect(lock().acquire()).rejects.toMatchObject({
      code: 'IO_ERROR',
      message: expect.stringMatching(/^run\/loop\.lock is a FIFO, socket or device, not a lock file\. .*remove it/),
    });
    expect((await readLockStatus(fs, LOCK, NOW_S)).issues[0]?.message).toMatch(/^loop\.lock is a FIFO/);
  });

  it('a file longer than any record is no lock record: the status says so, and a loop takes it over at once', async () => {
    await t.writeAt(LOCK, padded(ANCIENT, LOCK_RECORD_MAX_BYTES + 1), NOW_S);
    expect((await readLockStatus(t.fs, LOCK, t.clock.now())).issues[0]).toMatchObject({
      code: 'invalid_lock',
      message: 'loop.lock is not a lock record: a loop takes it over at once (no loop ever holds a lock without one)',
    });
    expect(await lock().acquire()).toMatchObject({
      previousOwner: 'unknown (unreadable lock file)',
      ageMs: 0,
      reason: 'no_record',
    });
    await expect(lock('c').acquire()).rejects.toMatchObject({ code: 'RUN_LOCKED' });
  });

  it.each([
    ['empty', ''],
    ['torn', ANCIENT.slice(0, 40)],
  ])('an %s lock file, left by a kill between its create and its write, is taken over at once', async (_, text) => {
    await t.writeAt(LOCK, text, NOW_S);
    expect(await lock().acquire()).toMatchObject({ reason: 'no_record' });
    await expect(lock('c').acquire()).rejects.toMatchObject({ code: 'RUN_LOCKED' });
  });

  it('a record padded to exactly the longest read is a record; one with a byte order mark is not', async () => {
    await t.writeAt(LOCK, padded(ANCIENT, LOCK_RECORD_MAX_BYTES), NOW_S);
    expect(await lock().acquire()).toMatchObject({ previousOwner: 'goal-loop:4164:x' });
    await t.writeAt(LOCK, `\uFEFF${ANCIENT}`, NOW_S);
    expect(await lock('c').acquire()).toMatchObject({ reason: 'no_record' });
  });

  it('a directory at the holder’s heartbeat file is not consulted: the lock’s own time decides', async () => {
    const held = lockText({ host: 'build-9', token: 'abc', heartbeat_at: NOW_S, timeout_ms: TIMEOUT });
    await t.writeAt(LOCK, held, NOW_S);
    await t.fs.mkdir(`${LOCK}.beat-abc`);
    await expect(lock().acquire()).rejects.toMatchObject({ code: 'RUN_LOCKED' });
    expect(await readLockStatus(t.fs, LOCK, NOW_S)).toMatchObject({ lock: { heartbeatAgeMs: 0 }, issues: [] });
    t.clock.advance(TIMEOUT + 1);
    expect(await lock().acquire()).toMatchObject({ previousOwner: 'goal-loop:4164:x', reason: 'heartbeat_stale' });
  });

  it('a directory among the files left next to the lock is stepped over; the others are still swept', async () => {
    await t.fs.mkdir(`${LOCK}.beat-aaa`);
    await t.writeAt(`${LOCK}.beat-old`, lockText({ token: 'old', heartbeat_at: NOW_S - TIMEOUT - 1 }), NOW_S);
    expect(await lock('a').acquire()).toBeNull();
    expect(await t.fs.list('run')).toEqual(['loop.lock', 'loop.lock.beat-aaa']);
  });
});

describe('a sparse 2 GiB lock file on the real filesystem', () => {
  it('is no lock record, read no further than a record, and taken over at once', async () => {
    const t = await DATED_FILE_SYSTEMS[1].make();
    try {
      await mkdir(join(t.fs.root, 'run'));
      const path = join(t.fs.root, LOCK);
      execFileSync('truncate', ['-s', '2G', path]);
      await utimes(path, NOW_S / 1000, NOW_S / 1000);
      expect((await stat(path)).size).toBe(2 ** 31);
      expect((await readLockStatus(t.fs, LOCK, NOW_S)).issues).toEqual([
        expect.objectContaining({ code: 'invalid_lock' }),
      ]);
      expect(await new RunLock(t.fs, LOCK, t.clock, 'b', TIMEOUT).acquire()).toMatchObject({
        previousOwner: 'unknown (unreadable lock file)',
        reason: 'no_record',
      });
      expect((await stat(path)).size).toBeLessThan(1_000);
    } finally {
      await t.dispose();
    }
  });
});
