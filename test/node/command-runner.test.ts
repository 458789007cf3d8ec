import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExecaCommandRunner } from '../../src/node/command-runner.js';

const runner = createExecaCommandRunner();
let cwd: string;
// Detached processes a test leaves running on purpose (the runner does not kill them); killed at the end.
const detached: number[] = [];

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

// The process group a kill detail names.
function detailGroup(detail: string | undefined): number {
  return Number(/killed process group (\d+)/.exec(detail ?? '')?.[1]);
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

  it('returns soon after the shell exits, killing a background child of its group that holds the output open', async () => {
    const result = await runner.run('sleep 100 & echo $!', { cwd, timeoutMs: 60_000 });
    expect(result).toMatchObject({ exitCode: 0, timedOut: false, aborted: false });
    expect(result.durationMs).toBeLessThan(3_000);
    expect(result.detail).toMatch(
      /^the shell exited, but processes of its group held the output open: killed process group \d+ after 300 ms$/,
    );
    expect(await waitGone(printedPid(result.stdoutTail))).toBe(true);
  });

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

  it('gives each command its own GOAL_LOOP_COMMAND_ID, beside the env it was given', async () => {
    const run = (): Promise<{ stdoutTail: string }> =>
      runner.run('echo "$GOAL_LOOP_COMMAND_ID $EXTRA"', { cwd, timeoutMs: 10_000, env: { EXTRA: 'kept' } });
    const [first, second] = [(await run()).stdoutTail.trim(), (await run()).stdoutTail.trim()];
    expect(first).toMatch(/^[0-9a-f-]{36} kept$/);
    expect(second).toMatch(/^[0-9a-f-]{36} kept$/);
    expect(first).not.toBe(second);
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

  it('refuses an invalid timeout before starting anything, and treats Infinity as no timeout', async () => {
    for (const timeoutMs of [Number.NaN, -1, '500', null]) {
      await expect(runner.run('touch ran.txt', { cwd, timeoutMs } as never)).rejects.toMatchObject({
        code: 'INVALID_OPTIONS',
        issues: [expect.objectContaining({ path: ['timeoutMs'] })],
      });
    }
    await expect(readFile(join(cwd, 'ran.txt'))).rejects.toThrow();
    expect(await runner.run('exit 0', { cwd, timeoutMs: Number.POSITIVE_INFINITY })).toMatchObject({
      exitCode: 0,
      timedOut: false,
    });
  });

  it('names the timeout given as a string, which would otherwise run the command without one', async () => {
    await expect(runner.run('touch slept.txt', { cwd, timeoutMs: '500' } as never)).rejects.toMatchObject({
      code: 'INVALID_OPTIONS',
      message: expect.stringContaining('$.timeoutMs: timeoutMs must be a number of milliseconds ≥ 0 (got "500")'),
    });
    await expect(readFile(join(cwd, 'slept.txt'))).rejects.toThrow();
  });

  it('refuses a negative output cap', () => {
    for (const maxOutputBytes of [-1, 1.5]) {
      expect(() => createExecaCommandRunner({ maxOutputBytes })).toThrow(
        expect.objectContaining({ code: 'INVALID_OPTIONS' }),
      );
    }
  });
});
