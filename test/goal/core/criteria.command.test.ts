import { describe, expect, it } from 'vitest';
import { OUTPUT_TAIL_CHARS } from '../../../src/goal/core/command-outcome.js';
import { command, evaluate, ran } from './fixtures.js';

describe('command', () => {
  it('passes iff the exit code equals expect_exit_code, keeping the exit code as observed', () => {
    expect(evaluate(command('lint'), ran({ exitCode: 0 }))).toMatchObject({
      status: 'PASS',
      observed: 0,
      durationMs: 10,
    });
    const failed = evaluate(
      command('lint'),
      ran({ exitCode: 1, durationMs: 1234, stderrTail: 'first\nlint error here\n' }),
    );
    expect(failed).toMatchObject({
      status: 'FAIL',
      observed: 1,
      summary: 'exit code 1',
      durationMs: 1234,
      outputTail: 'first\nlint error here\n',
    });
    expect(failed.detail).toContain('1234 ms');
    expect(failed.detail).toContain('lint error here');
    expect(evaluate(command('x', [], { expect_exit_code: 3 }), ran({ exitCode: 3 })).status).toBe('PASS');
    expect(evaluate(command('x', [], { expect_exit_code: 3 }), ran({ exitCode: 0 }))).toMatchObject({
      status: 'FAIL',
      summary: 'exit code 0, expected 3',
    });
  });

  it('fails on a timeout', () => {
    const result = evaluate(command('slow'), ran({ exitCode: null, timedOut: true, durationMs: 120000 }));
    expect(result).toMatchObject({ status: 'FAIL', observed: null, summary: 'timed out after 120000 ms' });
  });

  it('fails when the command cannot start or is killed without an exit code', () => {
    expect(evaluate(command('x'), ran({ exitCode: null, startError: 'ENOENT' }))).toMatchObject({
      status: 'FAIL',
      summary: 'could not start',
    });
    expect(evaluate(command('x'), ran({ exitCode: null }))).toMatchObject({
      status: 'FAIL',
      summary: 'killed without an exit code',
    });
  });

  it('is PENDING when skipped or aborted', () => {
    expect(
      evaluate(command('x'), { kind: 'command', outcome: { state: 'skipped', detail: 'skipCommands is set' } }),
    ).toMatchObject({ status: 'PENDING', summary: 'command skipped' });
    const unrun = { state: 'skipped', detail: 'no runner', summary: 'no runner: pass `commands`' } as const;
    expect(evaluate(command('x'), { kind: 'command', outcome: unrun })).toMatchObject({
      status: 'PENDING',
      summary: 'no runner: pass `commands`',
      detail: '`npm run x` was not run: no runner.',
    });
    expect(evaluate(command('x'), ran({ exitCode: null, aborted: true })).status).toBe('PENDING');
  });

  it("keeps the runner's note in the detail whatever the outcome (a detached process it left running)", () => {
    const note =
      'the shell exited, but a process outside its process group (detached, e.g. by setsid) held the output open: stopped reading it after 300 ms, without killing it';
    for (const result of [{ exitCode: 0 }, { exitCode: 1 }, { exitCode: null }, { exitCode: null, timedOut: true }]) {
      expect(evaluate(command('x'), ran({ ...result, detail: note })).detail).toContain(`(${note})`);
    }
    expect(evaluate(command('x'), ran({ exitCode: 0 })).detail).toBe('`npm run x` exited 0 (expected 0) in 10 ms.');
  });

  it('caps the kept output tail and prefers standard error', () => {
    const long = 'y'.repeat(OUTPUT_TAIL_CHARS + 50);
    expect(evaluate(command('x'), ran({ exitCode: 1, stdoutTail: long })).outputTail).toHaveLength(OUTPUT_TAIL_CHARS);
    expect(evaluate(command('x'), ran({ exitCode: 1, stdoutTail: 'out', stderrTail: 'err' })).outputTail).toBe('err');
  });
});
