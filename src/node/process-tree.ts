import { readdirSync, readFileSync } from 'node:fs';

/** The parts of a started shell the killers read. @internal */
export interface Subprocess {
  readonly pid?: number | undefined;
  readonly exitCode: number | null;
  readonly signalCode: string | null;
  kill(signal: NodeJS.Signals): boolean;
}

/**
 * Kills the subprocess's whole process group and every descendant that left it, falling back to the process alone;
 * says what was killed. The group is stopped first so that no process forks or is reparented while the tree is read.
 *
 * @internal
 */
export function killTree(subprocess: Subprocess): string {
  const pid = subprocess.pid;
  if (pid === undefined) return 'nothing to kill';
  try {
    process.kill(-pid, 'SIGSTOP');
  } catch {
    // No group (or no permission): kill the shell itself, but only while it is not yet reaped,
    // so a recycled pid is never hit.
    if (subprocess.exitCode !== null || subprocess.signalCode !== null) return 'nothing left to kill';
    subprocess.kill('SIGKILL');
    return `killed the shell (pid ${pid})`;
  }
  const outside = descendantsOutsideGroup(pid);
  for (const other of outside) signal(other, 'SIGKILL');
  signal(-pid, 'SIGKILL');
  const others =
    outside.length === 0
      ? ''
      : ` and ${outside.length} process${outside.length === 1 ? '' : 'es'} outside it (pid ${outside.join(', ')})`;
  return `killed process group ${pid}${others}`;
}

/** After the shell exited with its output still held open: kills what is left of its process group; false when none is. @internal */
export function killGroup(subprocess: Subprocess): boolean {
  const pid = subprocess.pid;
  if (pid === undefined) return false;
  try {
    process.kill(-pid, 'SIGKILL');
    return true;
  } catch {
    return false;
  }
}

// Sends a signal, ignoring a process that is already gone.
function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

// The descendants of `root` (read from /proc; none where there is no /proc) whose process group is not `root`'s.
function descendantsOutsideGroup(root: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const children = new Map<number, { pid: number; group: number }[]>();
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after the command name (which may hold spaces and parentheses): state ppid pgrp ...
    const [, ppid, pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const parent = Number(ppid);
    const list = children.get(parent) ?? [];
    list.push({ pid: Number(entry), group: Number(pgrp) });
    children.set(parent, list);
  }
  const outside: number[] = [];
  const queue = [root];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const child of children.get(next) ?? []) {
      if (child.group !== root) outside.push(child.pid);
      queue.push(child.pid);
    }
  }
  return outside.sort((a, b) => a - b);
}
