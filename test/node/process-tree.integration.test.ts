import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { killTree } from '../../src/node/process-tree.js';

// killTree on real process trees: the detail names at most 20 pids outside the group, and the search for processes
// that left the tree has a time budget, so a kill returns on time however many processes there are.

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) {
    try {
      process.kill(-(child.pid ?? 0), 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
});

// True once the process is gone, or only a zombie waiting for its reaper.
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return / Z /.test(stat.slice(stat.lastIndexOf(')')));
  } catch {
    return true;
  }
}

// Starts `script` as a process-group leader carrying its own marker, and waits until it printed `ready`.
async function shell(script: string, marker: string): Promise<ChildProcess> {
  const child = spawn('sh', ['-c', `${script}; echo ready; sleep 30`], {
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...process.env, GOAL_LOOP_COMMAND_ID: marker.split('=')[1] },
  });
  started.push(child);
  await new Promise<void>((resolve) =>
    child.stdout?.on('data', (chunk: Buffer) => chunk.includes('ready') && resolve()),
  );
  return child;
}

// The pids a detail names outside the group.
const namedPids = (detail: string): number[] =>
  (/\(pid ([\d, ]+)/.exec(detail)?.[1] ?? '').split(', ').filter(Boolean).map(Number);

describe('killTree', () => {
  it('names the first 20 processes outside the group and counts the rest, killing every one', async () => {
    const marker = `GOAL_LOOP_COMMAND_ID=${randomUUID()}`;
    const child = await shell('for i in $(seq 25); do setsid sleep 30 & done; sleep 0.5', marker);
    const detail = killTree(child, marker);
    expect(detail).toMatch(/^killed process group \d+ and 25 processes outside it \(pid [\d, ]+ and 5 more\)$/);
    for (const pid of namedPids(detail)) await expect.poll(() => gone(pid)).toBe(true);
  });

  it('stops searching when its time budget is spent, and says so', async () => {
    const marker = `GOAL_LOOP_COMMAND_ID=${randomUUID()}`;
    const pidFile = join(tmpdir(), `goal-loop-tree-${randomUUID()}.pid`);
    const child = await shell(`(setsid sh -c 'echo $$ > ${pidFile}; exec sleep 30' &); sleep 0.3`, marker);
    const detail = killTree(child, marker, 0);
    expect(detail).toMatch(/^killed process group \d+; stopped searching for processes that left it after 0 ms$/);
    // What the search did not reach is left running: killed here.
    process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
    rmSync(pidFile);
  });
});
