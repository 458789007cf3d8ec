import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExecaCommandRunner } from '../../src/node/command-runner.js';

const runner = createExecaCommandRunner();
let cwd: string;

beforeAll(async () => {
  cwd = await realpath(await mkdtemp(join(tmpdir(), 'goal-loop-cmd-')));
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

// True once the process is gone (or only a zombie waiting for its reaper).
async function isGone(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return stat === '' || / Z /.test(stat.slice(stat.lastIndexOf(')')));
}

// Polls until the process is gone, within a generous bound.
async function waitGone(pid: number): Promise<boolean> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (await isGone(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

// The pid a command printed on the first line of its output.
function printedPid(stdout: string): number {
  const pid = Number.parseInt(stdout.trim().split('\n')[0] ?? '', 10);
  expect(Number.isInteger(pid) && pid > 0).toBe(true);
  return pid;
}

describe('createExecaCommandRunner', () => {
  it('returns exit codes and output tails without rejecting', async () => {
    const ok = await runner.run('echo hello; echo oops >&2', { cwd, timeoutMs: 10_000 });
    expect(ok).toMatchObject({
      exitCode: 0,
      timedOut: false,
      aborted: false,
      stdoutTail: 'hello\n',
      stderrTail: 'oops\n',
    });
    expect(ok.startError).toBeUndefined();
    expect(ok.durationMs).toBeGreaterThanOrEqual(0);
    expect(ok.durationMs).toBeLessThan(10_000);
    const failed = await runner.run('exit 3', { cwd, timeoutMs: 10_000 });
    expect(failed).toMatchObject({ exitCode: 3, timedOut: false, aborted: false });
    const missing = await runner.run('definitely-not-a-command-goal-loop', { cwd, timeoutMs: 10_000 });
    expect(missing.exitCode).toBe(127);
  });

  it('runs in the given cwd with extra env on top of the inherited one', async () => {
    const result = await runner.run('pwd; echo "$GOAL_LOOP_TEST_VAR"; command -v sh >/dev/null && echo has-path', {
      cwd,
      timeoutMs: 10_000,
      env: { GOAL_LOOP_TEST_VAR: 'from-env' },
    });
    expect(result.stdoutTail.split('\n')).toEqual([cwd, 'from-env', 'has-path', '']);
  });

  it('returns a startError, not a rejection, when the cwd is missing', async () => {
    const result = await runner.run('echo never', { cwd: join(cwd, 'missing-dir'), timeoutMs: 10_000 });
    expect(result.exitCode).toBeNull();
    expect(result.startError).toMatch(/cwd|ENOENT/);
    expect(result.stdoutTail).toBe('');
  });

  it('kills the whole process tree on timeout, grandchildren included', async () => {
    const result = await runner.run(`sh -c 'sleep 100 & echo $!; sleep 100'`, { cwd, timeoutMs: 500 });
    expect(result).toMatchObject({ exitCode: null, timedOut: true, aborted: false });
    expect(result.durationMs).toBeLessThan(15_000);
    expect(await waitGone(printedPid(result.stdoutTail))).toBe(true);
  });

  it('times out a command whose shell exited but whose background child holds the output open', async () => {
    const result = await runner.run('sleep 100 & echo $!', { cwd, timeoutMs: 500 });
    expect(result.timedOut).toBe(true);
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

  it('keeps only the tail of large output', async () => {
    const capped = createExecaCommandRunner({ maxOutputBytes: 1000 });
    const result = await capped.run(
      `head -c 2000000 /dev/zero | tr '\\0' a; echo END; head -c 50000 /dev/zero | tr '\\0' b >&2`,
      { cwd, timeoutMs: 30_000 },
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdoutTail).toHaveLength(1000);
    expect(result.stdoutTail.endsWith('aaaEND\n')).toBe(true);
    expect(result.stderrTail).toBe('b'.repeat(1000));
  });

  it('never starts a tail in the middle of a UTF-8 character', async () => {
    const capped = createExecaCommandRunner({ maxOutputBytes: 51 });
    const result = await capped.run(`i=0; while [ $i -lt 100 ]; do printf 'é'; i=$((i+1)); done`, {
      cwd,
      timeoutMs: 10_000,
    });
    expect(result.stdoutTail).toBe('é'.repeat(25));
  });

  it('reports an invalid timeout as a startError and treats Infinity as no timeout', async () => {
    const invalid = await runner.run('touch ran.txt', { cwd, timeoutMs: Number.NaN });
    expect(invalid).toMatchObject({
      exitCode: null,
      timedOut: false,
      startError: expect.stringContaining('timeoutMs'),
    });
    await expect(readFile(join(cwd, 'ran.txt'))).rejects.toThrow();
    expect(await runner.run('exit 0', { cwd, timeoutMs: Number.POSITIVE_INFINITY })).toMatchObject({
      exitCode: 0,
      timedOut: false,
    });
  });

  it('refuses a negative output cap', () => {
    for (const maxOutputBytes of [-1, 1.5]) {
      expect(() => createExecaCommandRunner({ maxOutputBytes })).toThrow(
        expect.objectContaining({ code: 'INVALID_OPTIONS' }),
      );
    }
  });
});
