import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/** The parts of a started shell the killers read. @internal */
export interface Subprocess {
  readonly pid?: number | undefined;
  readonly exitCode: number | null;
  readonly signalCode: string | null;
  kill(signal: NodeJS.Signals): boolean;
}

// A daemon forking in a loop grows the table while it is read: past this, kill what was found.
const SEARCH_BUDGET_MS = 1_000;

// At most this many pids are named in a kill's detail; the rest are counted.
const NAMED_PIDS = 20;

/** Kills the group, its escaped descendants and `marker`-carrying orphans, stopping them first so none forks meanwhile. @internal */
export function killTree(subprocess: Subprocess, marker?: string, budgetMs = SEARCH_BUDGET_MS): string {
  const pid = subprocess.pid;
  if (pid === undefined) return 'nothing to kill';
  try {
    process.kill(-pid, 'SIGSTOP');
  } catch {
    // No group: kill the shell only while unreaped, so a recycled pid is never hit.
    if (subprocess.exitCode !== null || subprocess.signalCode !== null) return 'nothing left to kill';
    subprocess.kill('SIGKILL');
    return `killed the shell (pid ${pid})`;
  }
  const outside = new Set<number>();
  const deadline = performance.now() + budgetMs;
  let complete = true;
  // Two passes: a process found (and stopped) in the first may have forked before it stopped.
  for (let pass = 0; pass < 2 && complete; pass++) {
    const found = processesOutsideGroup(pid, marker, outside, deadline);
    complete = found.complete;
    for (const other of found.pids) {
      signal(other, 'SIGSTOP');
      outside.add(other);
    }
  }
  for (const other of outside) signal(other, 'SIGKILL');
  signal(-pid, 'SIGKILL');
  return `killed process group ${pid}${outsideNote([...outside].sort((a, b) => a - b))}${
    complete ? '' : `; stopped searching for processes that left it after ${budgetMs} ms`
  }`;
}

// The detail's words for the processes killed outside the group (the first NAMED_PIDS named).
function outsideNote(pids: readonly number[]): string {
  if (pids.length === 0) return '';
  const named = pids.slice(0, NAMED_PIDS).join(', ');
  const more = pids.length > NAMED_PIDS ? ` and ${pids.length - NAMED_PIDS} more` : '';
  return ` and ${pids.length} process${pids.length === 1 ? '' : 'es'} outside it (pid ${named}${more})`;
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

// One row of the process table.
interface ProcessRow {
  readonly pid: number;
  readonly parent: number;
  readonly group: number;
}

// The process table, read from /proc (empty where there is none).
function processTable(): ProcessRow[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const rows: ProcessRow[] = [];
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
    rows.push({ pid: Number(entry), parent: Number(ppid), group: Number(pgrp) });
  }
  return rows;
}

// True when the process's environment holds `marker` (a `NAME=value` entry); false when it cannot be read.
function carries(pid: number, marker: string): boolean {
  try {
    return `\0${readFileSync(`/proc/${pid}/environ`, 'latin1')}`.includes(`\0${marker}\0`);
  } catch {
    return false;
  }
}

// Descendants outside the group and `marker` carriers; `complete` false when the deadline passed.
function processesOutsideGroup(
  root: number,
  marker: string | undefined,
  known: ReadonlySet<number>,
  deadline: number,
): { pids: number[]; complete: boolean } {
  const rows = processTable();
  const children = new Map<number, ProcessRow[]>();
  for (const row of rows) {
    const list = children.get(row.parent);
    if (list === undefined) children.set(row.parent, [row]);
    else list.push(row);
  }
  const outside = new Set<number>();
  const queue = [root];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const child of children.get(next) ?? []) {
      if (child.group !== root && !known.has(child.pid)) outside.add(child.pid);
      queue.push(child.pid);
    }
  }
  if (marker === undefined) return { pids: [...outside], complete: true };
  for (let index = 0; index < rows.length; index++) {
    const row = rows[index] as ProcessRow;
    if (index % 64 === 0 && performance.now() > deadline) return { pids: [...outside], complete: false };
    if (row.group === root || row.pid === process.pid || known.has(row.pid) || outside.has(row.pid)) continue;
    if (carries(row.pid, marker)) outside.add(row.pid);
  }
  return { pids: [...outside], complete: true };
}
