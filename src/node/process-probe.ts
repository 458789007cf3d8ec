import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import type { ProcessProbe } from '../ports/process-probe.js';

/**
 * The processes of this machine and pid namespace, as a {@link ProcessProbe}.
 *
 * `host` is the host name, then (on Linux, when readable) the pid namespace
 * (`/proc/self/ns/pid`, `pid:[4026531836]`) and the boot id
 * (`/proc/sys/kernel/random/boot_id`): `build-7/pid:[4026531836]/boot:0f8e…`.
 * Two containers with one host name (`--network host`) but their own pid
 * namespaces thus differ, and so do two machines with one host name, whose
 * initial pid namespaces have the same number. Containers that share a pid
 * namespace and a host name are one host, rightly: each sees the other's
 * processes. Where `/proc` cannot be read (macOS, Windows) the host name
 * alone is the identity. It is read on first use, not when the module loads,
 * and kept; an empty host name gives no identity (no holder is judged gone).
 *
 * `isGone(pid)` is true when `process.kill(pid, 0)` fails with `ESRCH` (no
 * such process), and on Linux when `/proc/<pid>/status` shows a zombie: a
 * process that has exited and waits only for its parent to reap it (a
 * supervisor that never calls `wait`) holds nothing. `/proc` is trusted only
 * when `/proc/self` is this process (the same pid namespace). A live
 * process, one of another user (`EPERM`), a zombie whose threads still run,
 * and a pid that is not a positive safe integer (which would name a process
 * group) are never gone.
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
  // A Linux system that tells the boot but hides the pid namespace cannot tell two containers of one host name
  // apart: no identity then, so no holder is ever judged gone (the heartbeat timeout decides).
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

// Signal 0 only checks the process exists. ESRCH: no such process. EPERM: it exists but belongs to another user.
// A pid that is not positive would name a process group (0, negatives), so it is never probed.
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

// True when /proc shows `pid` exited and not yet reaped: state Z with no thread left running (a thread group
// whose leader exited while other threads run also shows Z, with Threads above 1). Any doubt is false.
function isZombie(pid: number): boolean {
  if (!ownProc()) return false;
  const status = attempt(() => readFileSync(`/proc/${pid}/status`, 'utf8'));
  return status !== null && zombieStatus(status);
}

/**
 * True when the text of a `/proc/<pid>/status` file shows a process that exited and was not reaped: state Z with
 * at most one thread (a leader that exited while its other threads run shows Z too, with more). Pure. @internal
 */
export function zombieStatus(status: string): boolean {
  const state = /^State:\s+(\S)/m.exec(status)?.[1];
  const threads = Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? Number.NaN);
  return state === 'Z' && threads <= 1;
}
