import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createExecaCommandRunner } from '../../src/node/command-runner.js';
import { cwd, runner, useCommandDir } from './command-dir.js';

// What a command's run returns: its exit code, output tails, start error, and the environment it ran in.

useCommandDir();

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

  it('gives each command its own GOAL_LOOP_COMMAND_ID, beside the env it was given', async () => {
    const run = (): Promise<{ stdoutTail: string }> =>
      runner.run('echo "$GOAL_LOOP_COMMAND_ID $EXTRA"', { cwd, timeoutMs: 10_000, env: { EXTRA: 'kept' } });
    const [first, second] = [(await run()).stdoutTail.trim(), (await run()).stdoutTail.trim()];
    expect(first).toMatch(/^[0-9a-f-]{36} kept$/);
    expect(second).toMatch(/^[0-9a-f-]{36} kept$/);
    expect(first).not.toBe(second);
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
});
