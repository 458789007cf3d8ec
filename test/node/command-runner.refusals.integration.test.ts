import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createExecaCommandRunner } from '../../src/node/command-runner.js';
import { cwd, runner, useCommandDir } from './command-dir.js';

// Bad options are refused before any command starts: a timeout that is not a number of milliseconds, a bad cap.

useCommandDir();

describe('createExecaCommandRunner', () => {
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
