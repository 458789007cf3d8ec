import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import { createNodeProcessProbe } from '../../src/node/process-probe.js';
import { deadPid } from '../persist/dead-pid.js';

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

  it('is the processes of every Node filesystem', () => {
    const { processes } = createNodeFileSystem('.');
    expect(processes?.host).toBe(createNodeProcessProbe().host);
    expect(processes?.isGone(process.pid)).toBe(false);
  });
});
