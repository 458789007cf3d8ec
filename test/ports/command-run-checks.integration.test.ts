import { mkdtemp, readdir, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GoalLoopError } from '../../src/errors.js';
import { createExecaCommandRunner } from '../../src/node.js';
import { commandRunOptionIssues } from '../../src/ports/command-run-checks.js';
import type { CommandRunner } from '../../src/ports/command-runner.js';
import { createFakeCommandRunner } from '../../src/testing.js';

// The execa runner and the fake refuse the same run options with the same issues, before anything runs: a test
// with the double sees what production sees.

let cwd: string;
beforeAll(async () => {
  cwd = await realpath(await mkdtemp(join(tmpdir(), 'goal-loop-run-options-')));
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

const KNOWN = ['cwd', 'timeoutMs', 'env', 'signal'];

// The rejection of one call (fails the test when the call resolves).
async function refusal(runner: CommandRunner, options: unknown): Promise<GoalLoopError> {
  const outcome = await runner.run('touch ran.txt', options as never).then(
    () => new Error('the call ran'),
    (error: unknown) => error,
  );
  if (outcome instanceof GoalLoopError) return outcome;
  throw outcome;
}

// Each wrong call with the paths its refusal names (a function: `cwd` is known only once the tmp dir exists).
const cases = (): [string, unknown, (string | number)[][]][] => [
  ['no options', undefined, [[]]],
  ['null', null, [[]]],
  ['an array', [], [[]]],
  ['an empty object', {}, [['cwd'], ['timeoutMs']]],
  ['a string timeout', { cwd, timeoutMs: '500' }, [['timeoutMs']]],
  ['a NaN timeout', { cwd, timeoutMs: Number.NaN }, [['timeoutMs']]],
  ['a negative timeout', { cwd, timeoutMs: -1 }, [['timeoutMs']]],
  ['a misspelt timeoutMS', { cwd, timeoutMS: 500 }, [['timeoutMS'], ['timeoutMs']]],
  ['a numeric cwd', { cwd: 7, timeoutMs: 1_000 }, [['cwd']]],
  ['an empty cwd', { cwd: '', timeoutMs: 1_000 }, [['cwd']]],
  ['an env with a number', { cwd, timeoutMs: 1_000, env: { A: 1 } }, [['env']]],
  ['an env that is a string', { cwd, timeoutMs: 1_000, env: 'A=1' }, [['env']]],
  ['a signal that is not one', { cwd, timeoutMs: 1_000, signal: 'abort' }, [['signal']]],
  ['a misspelt signal', { cwd, timeoutMs: 1_000, sigal: AbortSignal.abort() }, [['sigal']]],
];

describe.each([
  ['the execa runner', () => createExecaCommandRunner()],
  ['the fake runner', () => createFakeCommandRunner({ 'touch ran.txt': { exitCode: 0 } })],
])('%s refuses wrong run options', (_name, make) => {
  it('refuses each wrong call with INVALID_OPTIONS at its paths, and runs nothing', async () => {
    const runner = make();
    for (const [what, options, paths] of cases()) {
      const error = await refusal(runner, options);
      expect(error.code, what).toBe('INVALID_OPTIONS');
      expect(
        error.issues.map((issue) => issue.path),
        what,
      ).toEqual(paths);
    }
    expect(await readdir(cwd)).toEqual([]);
    expect((runner as { calls?: unknown[] }).calls ?? []).toEqual([]);
  });

  it('suggests the option a misspelt key most likely means', async () => {
    const error = await refusal(make(), { cwd, timeoutMS: 500 });
    expect(error.issues[0]).toEqual({
      code: 'unrecognized_keys',
      path: ['timeoutMS'],
      message: 'unknown option `timeoutMS`; did you mean `timeoutMs`?',
    });
    expect(error.message).toContain('did you mean `timeoutMs`?');
  });

  it('runs valid calls: an env of strings, an AbortSignal, no timeout (Infinity)', async () => {
    const runner = make();
    const options = { cwd, timeoutMs: Number.POSITIVE_INFINITY, env: { A: 'x' }, signal: new AbortController().signal };
    expect(await runner.run('touch ran.txt', options)).toMatchObject({ exitCode: 0 });
    await rm(join(cwd, 'ran.txt'), { force: true });
  });
});

describe('commandRunOptionIssues', () => {
  it('names the same paths for both runners as the table above, and nothing for valid options', () => {
    for (const [what, options, paths] of cases()) {
      expect(
        commandRunOptionIssues(options).map((issue) => issue.path),
        what,
      ).toEqual(paths);
    }
    expect(commandRunOptionIssues({ cwd: '/w', timeoutMs: 0, env: {}, signal: undefined })).toEqual([]);
  });

  it('refuses any key outside the port, whatever the valid options beside it (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((key) => !KNOWN.includes(key)),
        fc.anything(),
        (key, value) => {
          const options: Record<string, unknown> = { cwd: '/w', timeoutMs: 10 };
          Object.defineProperty(options, key, { value, enumerable: true });
          expect(commandRunOptionIssues(options)).toEqual([
            expect.objectContaining({ code: 'unrecognized_keys', path: [key] }),
          ]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('accepts every timeout ≥ 0 and refuses every other value (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.anything()), (timeoutMs) => {
        const accepted = commandRunOptionIssues({ cwd: '/w', timeoutMs }).length === 0;
        expect(accepted).toBe(typeof timeoutMs === 'number' && timeoutMs >= 0);
      }),
      { numRuns: 300 },
    );
  });
});
