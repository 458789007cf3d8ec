import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import { createNodeProcessProbe, zombieStatus } from '../../src/node/process-probe.js';
import { systemClock } from '../../src/ports/clock.js';
import { RunLock } from '../../src/runtime/run-lock.js';
import { deadPid } from './dead-pid.js';

// The default timeout: only a holder judged gone can be taken over within a test.
const TIMEOUT = 600_000;
// This host's identity, as every Node filesystem writes it into its lock records.
const HOST = createNodeProcessProbe().host;
const source = (file: string) => pathToFileURL(resolve('src', file)).href;
// A loop's process: takes the run lock, says so, and stays alive holding it until it is killed.
const HOLDER = `
import { createNodeFileSystem } from '${source('node.ts')}';
import { RunLock } from '${source('runtime/run-lock.ts')}';
import { systemClock } from '${source('ports/clock.ts')}';
const lock = new RunLock(createNodeFileSystem(process.argv[2]), 'loop.lock', systemClock, 'holder', ${TIMEOUT});
console.log(JSON.stringify(await lock.acquire()));
setInterval(() => {}, 60_000);
`;

describe('a lock whose holder process is gone, on the real filesystem and real processes', () => {
  let root: string;
  let child: ChildProcess | null = null;
  const lock = (owner: string) => new RunLock(createNodeFileSystem(root), 'loop.lock', systemClock, owner, TIMEOUT);
  const writeLock = (fields: object) =>
    writeFile(
      join(root, 'loop.lock'),
      JSON.stringify({ owner: 'ghost', heartbeat_at: Date.now(), timeout_ms: TIMEOUT, ...fields }),
    );
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'goal-loop-lock-gone-'));
  });
  afterEach(async () => {
    child?.kill('SIGKILL');
    child = null;
    await rm(root, { recursive: true, force: true });
  });

  it('a holder killed with SIGKILL: locked while it lives, taken over at once after, saying its process is gone', async () => {
    await writeFile(join(root, 'holder.mts'), HOLDER);
    const holder = spawn(process.execPath, ['--import', 'tsx', join(root, 'holder.mts'), root], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child = holder;
    const acquired = await new Promise<string>((done, fail) => {
      holder.stdout?.once('data', (chunk: Buffer) => done(chunk.toString()));
      holder.on('error', fail);
      holder.on('exit', (code) => fail(new Error(`the holder exited (${code}) before taking the lock`)));
    });
    expect(acquired.trim()).toBe('null');
    const held = JSON.parse(await readFile(join(root, 'loop.lock'), 'utf8')) as { pid: number; host: string };
    expect(held).toMatchObject({ pid: holder.pid, host: HOST });

    await expect(lock('alive-check').acquire()).rejects.toMatchObject({
      code: 'RUN_LOCKED',
      message: expect.stringMatching(/locked by holder \(pid \d+ on .+, heartbeat \d+ s ago, stale after 600 s\)/),
    });

    const exited = new Promise((done) => holder.once('exit', done));
    holder.kill('SIGKILL');
    await exited;
    const takeover = await lock('resumer').acquire();
    expect(takeover).toMatchObject({ previousOwner: 'holder', reason: 'holder_gone' });
    expect(takeover?.ageMs).toBeLessThan(TIMEOUT);
    expect(JSON.parse(await readFile(join(root, 'loop.lock'), 'utf8'))).toMatchObject({ owner: 'resumer' });
  }, 30_000);

  it.runIf(process.platform === 'linux')(
    'a holder that exited but was never reaped (a zombie under a parent that never waits) is gone',
    async () => {
      // The holder takes the lock and exits at once without releasing it; the shell that started it becomes
      // `sleep 30`, which never reaps it.
      await writeFile(join(root, 'holder.mts'), HOLDER.replace('setInterval(() => {}, 60_000);', 'process.exit(0);'));
      const script = `"${process.execPath}" --import tsx "${join(root, 'holder.mts')}" "${root}" >/dev/null & echo $!; exec sleep 30`;
      const parent = spawn('sh', ['-c', script], { stdio: ['ignore', 'pipe', 'inherit'] });
      child = parent;
      const pid = Number(
        await new Promise<string>((done) => parent.stdout?.once('data', (data) => done(String(data)))),
      );
      // A zombie once its threads have all exited too (a leader shows Z a moment before they have).
      const zombie = async (): Promise<boolean> =>
        zombieStatus(await readFile(`/proc/${pid}/status`, 'utf8').catch(() => ''));
      const deadline = Date.now() + 20_000;
      while (!(await zombie()) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 25));
      expect(await zombie()).toBe(true);
      expect(JSON.parse(await readFile(join(root, 'loop.lock'), 'utf8'))).toMatchObject({ owner: 'holder', pid });
      expect(await lock('resumer').acquire()).toMatchObject({ previousOwner: 'holder', reason: 'holder_gone' });
    },
    30_000,
  );

  it('a live holder with a fresh heartbeat (this very process) keeps the lock', async () => {
    await writeLock({ pid: process.pid, host: HOST });
    await expect(lock('b').acquire()).rejects.toMatchObject({ code: 'RUN_LOCKED' });
  });

  it('a gone pid on another host, in a record without a host, or naming only the host name, waits for the heartbeat timeout', async () => {
    const pid = await deadPid();
    // A bare host name is what an older version wrote: it may be another container's with the same name (where the
    // identity is more than the host name).
    const bare = HOST === hostname() ? [] : [{ pid, host: hostname() }];
    for (const fields of [{ pid, host: `${HOST}-elsewhere` }, { pid }, ...bare]) {
      await writeLock(fields);
      await expect(lock('b').acquire(), JSON.stringify(fields)).rejects.toMatchObject({
        code: 'RUN_LOCKED',
        message: expect.stringContaining('a resuming loop may pass a smaller lockTimeoutMs'),
      });
      await writeLock({ ...fields, heartbeat_at: Date.now() - TIMEOUT - 1 });
      expect(await lock('b').acquire()).toMatchObject({ reason: 'heartbeat_stale' });
      await rm(join(root, 'loop.lock'));
    }
    // The same gone pid named on this host: taken over at once.
    await writeLock({ pid, host: HOST });
    expect(await lock('b').acquire()).toMatchObject({ previousOwner: 'ghost', reason: 'holder_gone' });
  });
});
