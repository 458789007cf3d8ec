import { describe, expect, it } from 'vitest';
import type { ConformanceTestApi, FileSystemFixture, ScriptedStageRunnerOptions } from '../../src/testing.js';
import {
  createFakeCommandRunner,
  createMemoryFileSystem,
  createScriptedStageRunner,
  describeFileSystemConformance,
  fileSystemConformanceCases,
} from '../../src/testing.js';
import { expectUnknownKey, refusal, refusedPaths } from '../kit/option-refusal.js';

const run = { cwd: '/w', timeoutMs: 1_000 };

describe('createFakeCommandRunner responses', () => {
  it.each([
    ['exitcode', 'exitCode'],
    ['stdout', undefined],
    ['stdoutTial', 'stdoutTail'],
    ['timedout', 'timedOut'],
  ])('refuses a fixed answer with %s, naming the command and suggesting %s', async (field, suggestion) => {
    const error = await expectUnknownKey(
      () => createFakeCommandRunner({ 'npm test': { [field]: 1 } }),
      ['npm test', field],
      suggestion,
    );
    expect(error.message).toContain('createFakeCommandRunner');
  });

  it('refuses a rule with a misspelt key, a bad matcher or a wrong field type, at the rule index', async () => {
    const rules = [
      { match: 'a', respond: { exitCode: 0 } },
      { macth: 'b', respond: {} },
      { match: 5, respond: { exitCode: '1', timedOut: 'no' } },
      'npm test',
    ];
    expect(await refusedPaths(() => createFakeCommandRunner(rules as never))).toEqual([
      [1, 'macth'],
      [1, 'match'],
      [2, 'match'],
      [2, 'respond', 'exitCode'],
      [2, 'respond', 'timedOut'],
      [3],
    ]);
    expect(await refusedPaths(() => createFakeCommandRunner('npm test' as never))).toEqual([[]]);
  });

  it('refuses a mistake in a list of answers at its index, and an empty list', async () => {
    const table = {
      'npm test': [{ exitCode: 1 }, { exitCode: '0' }, 'passed'],
      lint: [],
      ok: [{ exitCode: 0 }],
      nested: [[{ exitCode: 1 }]],
    };
    expect(await refusedPaths(() => createFakeCommandRunner(table as never))).toEqual([
      ['npm test', 1, 'exitCode'],
      ['npm test', 2],
      ['lint'],
      ['nested', 0],
    ]);
    const error = await refusal(() =>
      createFakeCommandRunner({ 'npm test': [{ exitCode: 0 }, { exitcode: 1 } as never] }),
    );
    expect(error.message).toContain('$["npm test"][1].exitcode: unknown option `exitcode`; did you mean `exitCode`?');
    const rules = [{ match: 'a', respond: [{ exitCode: 0 }, { timedOut: 'no' }] }];
    expect(await refusedPaths(() => createFakeCommandRunner(rules as never))).toEqual([[0, 'respond', 1, 'timedOut']]);
  });

  it('rejects the call when a response function answers with a misspelt field', async () => {
    const commands = createFakeCommandRunner({ 'npm test': () => ({ exitcode: 1 }) as never });
    await expectUnknownKey(() => commands.run('npm test', run), ['npm test', 'exitcode'], 'exitCode');
  });

  it('still answers valid tables, every result field included', async () => {
    const answer = {
      exitCode: null,
      timedOut: true,
      aborted: false,
      durationMs: 5,
      stdoutTail: 'o',
      stderrTail: 'e',
      startError: 's',
      detail: 'd',
    };
    const commands = createFakeCommandRunner([
      { match: 'slow', respond: answer },
      { match: /^fn /, respond: () => ({ exitCode: 3 }) },
    ]);
    expect(await commands.run('slow', run)).toEqual(answer);
    expect((await commands.run('fn x', run)).exitCode).toBe(3);
    expect((await commands.run('other', run)).exitCode).toBe(127);
  });
});

describe('createScriptedStageRunner script and options', () => {
  it('refuses a misspelt option, suggesting fallback', async () => {
    const options = { fallbak: { status: 'passed' } } as ScriptedStageRunnerOptions;
    const error = await expectUnknownKey(
      () => createScriptedStageRunner({}, options),
      ['options', 'fallbak'],
      'fallback',
    );
    expect(error.message).toContain('createScriptedStageRunner');
  });

  it('refuses steps and a fallback that are neither outcomes nor functions, at their paths', async () => {
    const script = { a: 'passed', b: [{ status: 'passed' }, null] };
    expect(
      await refusedPaths(() => createScriptedStageRunner(script as never, { fallback: 'failed' } as never)),
    ).toEqual([
      ['script', 'a'],
      ['script', 'b', 1],
      ['options', 'fallback'],
    ]);
    expect(await refusedPaths(() => createScriptedStageRunner([] as never))).toEqual([['script']]);
  });

  it('runs a valid script, with its fallback', async () => {
    const runner = createScriptedStageRunner({ a: { status: 'passed' } }, { fallback: () => ({ status: 'blocked' }) });
    const context = {
      fs: createMemoryFileSystem(),
      runDir: 'r',
      iteration: 1,
      reason: { kind: 'initial' as const },
      previousEvaluation: null,
      signal: new AbortController().signal,
    };
    expect(await runner.run('a', context)).toEqual({ status: 'passed' });
    expect(await runner.run('z', context)).toEqual({ status: 'blocked' });
  });
});

describe('the conformance suite refuses a wrong api or fixture', () => {
  const noop = () => undefined;
  it('refuses a misspelt api member at once, and a member that is not a function', async () => {
    const api = { describe: noop, it: noop, beforeEach: noop, afterEeach: noop } as unknown as ConformanceTestApi;
    const factory = async () => ({ fs: createMemoryFileSystem() });
    await expectUnknownKey(() => describeFileSystemConformance('x', factory, api), ['api', 'afterEeach'], 'afterEach');
    const wrong = { describe: noop, it: 'it' } as unknown as ConformanceTestApi;
    expect(await refusedPaths(() => describeFileSystemConformance('x', factory, wrong))).toEqual([['api', 'it']]);
  });

  it('fails a case run with a fixture whose read cap is misspelt, instead of passing without checking', async () => {
    const [first] = fileSystemConformanceCases();
    const fixture = { fs: createMemoryFileSystem({ maxReadBytes: 64 }), maxReadByte: 64 } as FileSystemFixture;
    await expectUnknownKey(() => first?.run(fixture), ['fixture', 'maxReadByte'], 'maxReadBytes');
    const error = await refusal(() => first?.run({ fs: createMemoryFileSystem(), maxReadBytes: -1 }));
    expect(error.issues.map((issue) => issue.path)).toEqual([['fixture', 'maxReadBytes']]);
    expect(await refusedPaths(() => first?.run({} as FileSystemFixture))).toEqual([['fixture', 'fs']]);
  });

  it('runs every case with a valid fixture', async () => {
    for (const testCase of fileSystemConformanceCases()) {
      const fs = createMemoryFileSystem({ maxReadBytes: 1024 });
      await testCase.run({ fs, symlink: fs.symlink, mkfifo: fs.mkfifo, maxReadBytes: 1024, cleanup: async () => {} });
    }
  });
});
