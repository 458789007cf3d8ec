import { describe, expect, it } from 'vitest';
import { createFakeCommandRunner } from '../../src/testing/fake-command-runner.js';

const options = { cwd: '/project', timeoutMs: 1_000 };

describe('createFakeCommandRunner', () => {
  it('answers exact command lines with completed results and records calls', async () => {
    const runner = createFakeCommandRunner({ 'npm test': { exitCode: 1, stderrTail: 'red' } });
    expect(await runner.run('npm test', options)).toEqual({
      exitCode: 1,
      timedOut: false,
      aborted: false,
      durationMs: 0,
      stdoutTail: '',
      stderrTail: 'red',
    });
    expect(runner.calls).toEqual([{ command: 'npm test', options }]);
  });

  it('answers an unknown command with exit 127 and "command not found"', async () => {
    const result = await createFakeCommandRunner().run('make docs', options);
    expect(result.exitCode).toBe(127);
    expect(result.stderrTail).toContain('command not found');
  });

  it('matches rules by string, pattern or predicate, first match wins, with function responses', async () => {
    const runner = createFakeCommandRunner([
      { match: /^npm run (lint|check)$/g, respond: { exitCode: 2 } },
      {
        match: (command) => command.startsWith('echo '),
        respond: (command) => ({ stdoutTail: `${command.slice(5)}\n` }),
      },
      { match: 'slow', respond: async () => ({ timedOut: true, exitCode: null }) },
    ]);
    expect((await runner.run('npm run lint', options)).exitCode).toBe(2);
    expect((await runner.run('npm run lint', options)).exitCode).toBe(2);
    expect(await runner.run('echo hi', options)).toMatchObject({ exitCode: 0, stdoutTail: 'hi\n' });
    expect(await runner.run('slow', options)).toMatchObject({ exitCode: null, timedOut: true });
  });

  it('answers a list one result per call, in order, the last repeating once the list is used up', async () => {
    const runner = createFakeCommandRunner({ 'npm test': [{ exitCode: 1 }, { exitCode: 0 }], lint: [{ exitCode: 2 }] });
    const codes = [];
    for (let call = 0; call < 4; call += 1) codes.push((await runner.run('npm test', options)).exitCode);
    expect(codes).toEqual([1, 0, 0, 0]);
    expect((await runner.run('lint', options)).exitCode).toBe(2);
    expect((await runner.run('lint', options)).exitCode).toBe(2);
  });

  it("keeps a cursor per rule: a pattern's list advances on every command it answers; functions are answers too", async () => {
    const runner = createFakeCommandRunner([
      { match: /^npm /, respond: [{ exitCode: 1 }, (command) => ({ stdoutTail: command })] },
      { match: 'other', respond: { exitCode: 3 } },
    ]);
    expect((await runner.run('npm a', options)).exitCode).toBe(1);
    expect((await runner.run('other', options)).exitCode).toBe(3);
    expect(await runner.run('npm b', options)).toMatchObject({ exitCode: 0, stdoutTail: 'npm b' });
    expect(await runner.run('npm c', options)).toMatchObject({ exitCode: 0, stdoutTail: 'npm c' });
  });

  it('does not use up an answer of the list on a call whose signal had already aborted', async () => {
    const runner = createFakeCommandRunner({ 'npm test': [{ exitCode: 1 }, { exitCode: 0 }] });
    expect((await runner.run('npm test', { ...options, signal: AbortSignal.abort() })).aborted).toBe(true);
    expect((await runner.run('npm test', options)).exitCode).toBe(1);
  });

  it('returns an aborted result, never a rejection, when the signal aborts before or during a response', async () => {
    const runner = createFakeCommandRunner({ hang: () => new Promise(() => undefined), quick: { exitCode: 0 } });
    expect(await runner.run('quick', { ...options, signal: AbortSignal.abort() })).toMatchObject({
      exitCode: null,
      aborted: true,
    });
    const controller = new AbortController();
    const pending = runner.run('hang', { ...options, signal: controller.signal });
    controller.abort();
    expect(await pending).toMatchObject({ exitCode: null, aborted: true });
  });
});
