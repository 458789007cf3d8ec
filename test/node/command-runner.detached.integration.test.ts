import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { cwd, detached, isGone, printedPid, runner, useCommandDir, waitGone } from './command-dir.js';

// Processes that leave the command's process group (setsid, orphans, double-forked daemons) do not hold a run
// open, and those the command started are killed with it; a daemon of another command is left alone.

// The process group a kill detail names.
function detailGroup(detail: string | undefined): number {
  return Number(/killed process group (\d+)/.exec(detail ?? '')?.[1]);
}

useCommandDir();

describe('createExecaCommandRunner', () => {
  it('returns when the shell exits although a detached grandchild holds the output, under any timeout', async () => {
    for (const timeoutMs of [2_000, 60_000]) {
      const started = performance.now();
      const result = await runner.run('setsid sleep 20 & echo $!; echo hi', { cwd, timeoutMs });
      const elapsed = performance.now() - started;
      detached.push(printedPid(result.stdoutTail));
      expect(result).toMatchObject({ exitCode: 0, timedOut: false, aborted: false });
      expect(result.stdoutTail).toMatch(/\nhi\n$/);
      expect(elapsed).toBeLessThan(3_000);
      expect(result.durationMs).toBeLessThan(3_000);
      expect(result.detail).toMatch(
        /^the shell exited, but a process outside its process group .* held the output open: stopped reading it/,
      );
    }
  });

  it('returns on time on timeout when a detached grandchild holds the output, and kills it', async () => {
    const started = performance.now();
    const result = await runner.run('setsid sleep 20 & echo $!; sleep 100', { cwd, timeoutMs: 1_000 });
    const elapsed = performance.now() - started;
    expect(result).toMatchObject({ exitCode: null, timedOut: true, aborted: false });
    expect(elapsed).toBeLessThan(3_000);
    expect(result.detail).toMatch(
      /^timed out after 1000 ms: killed process group \d+ and 1 process outside it \(pid \d+\)$/,
    );
    const grandchild = printedPid(result.stdoutTail);
    expect(result.detail).toContain(`(pid ${grandchild})`);
    expect(await waitGone(grandchild)).toBe(true);
  });

  it('returns on time on abort when a detached grandchild holds the output, and kills it', async () => {
    const controller = new AbortController();
    const started = performance.now();
    const pending = runner.run('setsid sleep 20 & echo $!; sleep 100', {
      cwd,
      timeoutMs: 60_000,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error('stop')), 300);
    const result = await pending;
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(result).toMatchObject({ exitCode: null, timedOut: false, aborted: true });
    expect(result.detail).toMatch(/^aborted: killed process group \d+ and 1 process outside it/);
    expect(await waitGone(printedPid(result.stdoutTail))).toBe(true);
  });

  it('returns on time on timeout when an orphan outside the tree holds the output, and kills it', async () => {
    const started = performance.now();
    const result = await runner.run(`(setsid sh -c 'echo $$; exec sleep 20' &); sleep 100`, { cwd, timeoutMs: 1_000 });
    const orphan = printedPid(result.stdoutTail);
    detached.push(orphan);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(result).toMatchObject({ exitCode: null, timedOut: true });
    expect(result.detail).toBe(
      `timed out after 1000 ms: killed process group ${detailGroup(result.detail)} and 1 process outside it (pid ${orphan})`,
    );
    expect(await waitGone(orphan)).toBe(true);
  });

  it('kills a double-forked daemon of the command on timeout and on abort, found by its GOAL_LOOP_COMMAND_ID', async () => {
    // The subshell exits at once, so the daemon's parent is gone: only the variable it inherited leads to it.
    const daemon = (file: string): string =>
      `(setsid sh -c 'exec sleep 30' </dev/null >/dev/null 2>&1 & echo $! > ${file}); sleep 100`;
    const timedOut = await runner.run(daemon('timeout.pid'), { cwd, timeoutMs: 1_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop')), 500);
    const aborted = await runner.run(daemon('abort.pid'), { cwd, timeoutMs: 60_000, signal: controller.signal });
    for (const [result, file] of [
      [timedOut, 'timeout.pid'],
      [aborted, 'abort.pid'],
    ] as const) {
      const pid = Number(await readFile(join(cwd, file), 'utf8'));
      detached.push(pid);
      expect(result.detail).toMatch(
        new RegExp(`: killed process group \\d+ and 1 process outside it \\(pid ${pid}\\)$`),
      );
      expect(await waitGone(pid)).toBe(true);
    }
  });

  it('kills only what its own command started: a daemon of a command running beside it survives', async () => {
    const other = runner.run(
      `(setsid sh -c 'exec sleep 30' </dev/null >/dev/null 2>&1 & echo $! > other.pid); sleep 3`,
      {
        cwd,
        timeoutMs: 60_000,
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const killed = await runner.run('sleep 100', { cwd, timeoutMs: 500 });
    expect(killed.detail).toMatch(/^timed out after 500 ms: killed process group \d+$/);
    const survivor = Number(await readFile(join(cwd, 'other.pid'), 'utf8'));
    detached.push(survivor);
    expect(await isGone(survivor)).toBe(false);
    await other;
  });
});
