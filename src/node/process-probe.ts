import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import type { ProcessProbe } from '../ports/process-probe.js';

/**
 * The processes of this machine and pid namespace, as a `ProcessProbe`. `host` is the host name plus, on Linux,
 * the pid namespace and boot id (`build-7/pid:[4026531836]/boot:0f8e…`), so containers with their own pid namespaces
 * are distinct hosts; elsewhere the host name alone. `isGone(pid)` is true for `ESRCH` and for a reaped-pending
 * zombie; another user's process (`EPERM`) and a pid that is not a positive safe integer are never gone.
 *
 * @example
 * ```ts
 * import { createNodeProcessProbe } from 'goal-loop/node';
 * const probe = createNodeProcessProbe();
 * probe.isGone(process.pid); // false
 * ```
 * @public
 */
export function createNodeProcessProbe(): ProcessProbe {
  let host: string | undefined;
  return {
    get host() {
      host ??= thisHost();
      return host;
    },
    isGone: pidIsGone,
  };
}

// The host name, with the pid namespace and the boot id where the system tells them; '' without a host name.
function thisHost(): string {
  const name = attempt(() => hostname());
  if (name === null || name === '') return '';
  const namespace = attempt(() => readlinkSync('/proc/self/ns/pid'));
  const boot = attempt(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim());
  // Boot id without pid namespace cannot tell containers apart: no identity, the heartbeat timeout decides.
  if (boot !== null && boot !== '' && (namespace === null || namespace === '')) return '';
  const parts = [name, namespace, boot === null || boot === '' ? null : `boot:${boot}`];
  return parts.filter((part) => part !== null && part !== '').join('/');
}

// The value, or null when reading it fails (no such file, no permission, no /proc).
function attempt(read: () => string): string | null {
  try {
    return read();
  } catch {
    return null;
  }
}

// Signal 0 only checks existence (EPERM: another user's); a non-positive pid would name a process group.
function pidIsGone(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as { code?: unknown } | null)?.code === 'ESRCH';
  }
  return isZombie(pid);
}

let procIsOurs: boolean | undefined;

// True when /proc describes this process's pid namespace: /proc/self is this very pid (read once).
function ownProc(): boolean {
  procIsOurs ??= attempt(() => readFileSync('/proc/self/stat', 'utf8'))?.startsWith(`${process.pid} (`) === true;
  return procIsOurs;
}

// Exited, not reaped: state Z with one thread (a leader whose threads still run shows Z with more). Doubt is false.
function isZombie(pid: number): boolean {
  if (!ownProc()) return false;
  const status = attempt(() => readFileSync(`/proc/${pid}/status`, 'utf8'));
  return status !== null && zombieStatus(status);
}

/** Zombie from `/proc/<pid>/status`: state Z with at most one thread. Pure. @internal */
export function zombieStatus(status: string): boolean {
  const state = /^State:\s+(\S)/m.exec(status)?.[1];
  const threads = Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? Number.NaN);
  return state === 'Z' && threads <= 1;
}
