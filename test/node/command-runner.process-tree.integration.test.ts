import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cwd, printedPid, runner, useCommandDir, waitGone } from './command-dir.js';

// A timeout or an abort kills the command's whole process tree; an aborted signal starts nothing.

useCommandDir();

describe('createExecaCommandRunner', () => {
  it('kills the whole process tree on timeout, grandchildren included', async () => {
    const result = await runner.run(`sh -c 'sleep 100 & echo $!; sleep 100'`, { cwd, timeoutMs: 500 });
    expect(result).toMatchObject({ exitCode: null, timedOut: true, aborted: false });
    expect(result.durationMs).toBeLessThan(15_000);
    expect(await waitGone(printedPid(result.stdoutTail))).toBe(true);
  });

  it('returns soon after the shell exits, killing a background child of its group that holds the output open', async () => {
    const result = await runner.run('sleep 100 & echo $!', { cwd, timeoutMs: 60_000 });
    expect(result).toMatchObject({ exitCode: 0, timedOut: false, aborted: false });
    expect(result.durationMs).toBeLessThan(3_000);
    expect(result.detail).toMatch(
      /^the shell exited, but processes of its group held the output open: killed process group \d+ after 300 ms$/,
    );
    expect(await waitGone(printedPid(result.stdoutTail))).toBe(true);
  });

  it('kills the whole process tree on abort', async () => {
    const controller = new AbortController();
    const pending = runner.run(`sh -c 'sleep 100 & echo $!; sleep 100'`, {
      cwd,
      timeoutMs: 60_000,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error('stop')), 300);
    const result = await pending;
    expect(result).toMatchObject({ exitCode: null, timedOut: false, aborted: true });
    expect(await waitGone(printedPid(result.stdoutTail))).toBe(true);
  });

  it('does not start a command whose signal has already aborted', async () => {
    const result = await runner.run(`touch started.txt`, { cwd, timeoutMs: 10_000, signal: AbortSignal.abort() });
    expect(result).toMatchObject({ exitCode: null, aborted: true });
    await expect(readFile(join(cwd, 'started.txt'))).rejects.toThrow();
  });
});
