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
