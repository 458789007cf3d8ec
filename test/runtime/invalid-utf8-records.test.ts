import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import { createJsonStore } from '../../src/runtime/json-store.js';
import { RunLock } from '../../src/runtime/run-lock.js';
import { createManualClock } from '../../src/testing/manual-clock.js';

// Record files the library owns whose bytes are not UTF-8 (a foreign file, a write cut inside a character) on the
// real filesystem: a lock file holds no lock record, so no loop ever held it, and the next one takes it over; a state file is
// STATE_CORRUPT with the way forward, as one that is not JSON.

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'goal-loop-invalid-utf8-'));
  await mkdir(join(root, 'run'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

// '{"owner":"h€' cut after the first byte of the euro sign.
const TORN = Buffer.from([0x7b, 0x22, 0x6f, 0x77, 0x6e, 0x65, 0x72, 0x22, 0x3a, 0x22, 0x68, 0xe2]);

describe('record files that are not UTF-8', () => {
  it('a lock file holds no lock record: taken over at once, however fresh', async () => {
    const fs = createNodeFileSystem(root);
    await writeFile(join(root, 'run/loop.lock'), TORN);
    const lock = new RunLock(fs, 'run/loop.lock', createManualClock(Date.now()), 'newcomer', 10_000);
    expect(await lock.acquire()).toMatchObject({
      previousOwner: 'unknown (unreadable lock file)',
      reason: 'no_record',
    });
    await lock.release();
  });

  it('a state file is STATE_CORRUPT naming the file, the offset and the way forward', async () => {
    await writeFile(join(root, 'run/state.json'), TORN);
    const store = createJsonStore(createNodeFileSystem(root), 'run/state.json', z.object({ owner: z.string() }));
    await expect(store.load()).rejects.toMatchObject({
      code: 'STATE_CORRUPT',
      message: expect.stringMatching(/^run\/state\.json is not valid UTF-8 \(\$: .*byte offset 11.*move it aside/),
    });
  });
});
