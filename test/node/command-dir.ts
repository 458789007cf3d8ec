import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { createExecaCommandRunner } from '../../src/node/command-runner.js';

// The setup of the command runner tests: a runner, a scratch directory to run in, and probes of the processes a
// command leaves behind.

/** The runner under test, with its default options. */
export const runner = createExecaCommandRunner();
/** The scratch directory the commands run in (set before the tests of a file that calls {@link useCommandDir}). */
export let cwd: string;
/** Detached processes a test leaves running on purpose (the runner does not kill them); killed at the end. */
export const detached: number[] = [];

/** Makes {@link cwd} before the tests of the calling file; kills {@link detached} and removes {@link cwd} after them. */
export function useCommandDir(): void {
  beforeAll(async () => {
    cwd = await realpath(await mkdtemp(join(tmpdir(), 'goal-loop-cmd-')));
  });
  afterAll(async () => {
    for (const pid of detached) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    await rm(cwd, { recursive: true, force: true });
  });
}

/** True once the process is gone (or only a zombie waiting for its reaper). */
export async function isGone(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return stat === '' || / Z /.test(stat.slice(stat.lastIndexOf(')')));
}

/** Polls until the process is gone, within a generous bound. */
export async function waitGone(pid: number): Promise<boolean> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (await isGone(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

/** The pid a command printed on the first line of its output. */
export function printedPid(stdout: string): number {
  const pid = Number.parseInt(stdout.trim().split('\n')[0] ?? '', 10);
  expect(Number.isInteger(pid) && pid > 0).toBe(true);
  return pid;
}
