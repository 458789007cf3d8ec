import { spawn } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import { createNodeProcessProbe, zombieStatus } from '../../src/node/process-probe.js';
import { deadPid } from '../runtime/dead-pid.js';

// What the system tells, or null where it does not (no /proc).
const read = (what: () => string): string | null => {
  try {
    return what();
  } catch {
    return null;
  }
};
const namespace = read(() => readlinkSync('/proc/self/ns/pid'));
const boot = read(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim());

describe('the Node process probe', () => {
  it('names this host by its host name, pid namespace and boot id (where /proc tells them)', () => {
    const { host } = createNodeProcessProbe();
    expect(host.startsWith(hostname())).toBe(true);
    if (namespace !== null) expect(host).toContain(`/${namespace}`);
    if (boot !== null) expect(host).toContain(`/boot:${boot}`);
    expect(host).toBe([hostname(), namespace, boot === null ? null : `boot:${boot}`].filter((p) => p).join('/'));
  });

  it.runIf(process.platform === 'linux')('on Linux the identity holds the pid namespace', () => {
    expect(createNodeProcessProbe().host).toMatch(/\/pid:\[\d+\]/);
  });

  it('sees this process alive and a process that exited gone; never probes a pid naming a group', async () => {
    const probe = createNodeProcessProbe();
    expect(probe.isGone(process.pid)).toBe(false);
    expect(probe.isGone(await deadPid())).toBe(true);
    for (const pid of [1, 0, -1, 1.5, Number.NaN, 2 ** 53]) expect(probe.isGone(pid)).toBe(false);
  });

  it.runIf(process.platform === 'linux')(
    'sees a zombie (exited, never reaped by its parent) gone, and its living parent not',
    async () => {
      // `sleep 0.05` is started by a shell that then becomes `sleep 30`, which never reaps it: a real zombie.
      const parent = spawn('sh', ['-c', 'sleep 0.05 & echo $!; exec sleep 30'], {
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      try {
        const zombie = Number(
          await new Promise<string>((resolve) => parent.stdout.once('data', (data) => resolve(String(data)))),
        );
        const probe = createNodeProcessProbe();
        expect(probe.isGone(zombie)).toBe(false);
        const deadline = Date.now() + 5000;
        while (
          !/^State:\s+Z/m.test(read(() => readFileSync(`/proc/${zombie}/status`, 'utf8')) ?? '') &&
          Date.now() < deadline
        )
          await new Promise((resolve) => setTimeout(resolve, 20));
        expect(read(() => readFileSync(`/proc/${zombie}/status`, 'utf8'))).toMatch(/^State:\s+Z/m);
        expect(probe.isGone(zombie)).toBe(true);
        expect(probe.isGone(parent.pid ?? 0)).toBe(false);
      } finally {
        parent.kill('SIGKILL');
      }
    },
  );

  it('reads a zombie from /proc/<pid>/status: state Z and no thread left running; any doubt is not one', () => {
    const status = (state: string, threads: string | null) =>
      `Name:\tnode\nState:\t${state}\nTgid:\t42\n${threads === null ? '' : `Threads:\t${threads}\n`}`;
    expect(zombieStatus(status('Z (zombie)', '1'))).toBe(true);
    // A leader that exited while its other threads run shows Z too: the process is alive.
    expect(zombieStatus(status('Z (zombie)', '3'))).toBe(false);
    expect(zombieStatus(status('S (sleeping)', '1'))).toBe(false);
    expect(zombieStatus(status('R (running)', '1'))).toBe(false);
    expect(zombieStatus(status('Z (zombie)', null))).toBe(false);
    expect(zombieStatus('')).toBe(false);
  });

  it('is the processes of every Node filesystem', () => {
    const { processes } = createNodeFileSystem('.');
    expect(processes?.host).toBe(createNodeProcessProbe().host);
    expect(processes?.isGone(process.pid)).toBe(false);
  });
});
