import { AssertionError } from 'node:assert';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ConformanceTestApi, FileSystemFixture } from '../../src/testing/file-system-conformance.js';
import {
  describeFileSystemConformance,
  fileSystemConformanceCases,
} from '../../src/testing/file-system-conformance.js';
import type { MemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';

// node:test's module type (type-only: node:test is never loaded here).
type NodeTest = typeof import('node:test');

// Runs every case on a fresh fixture and returns the names of the failing ones with their errors.
const failures = async (make: () => FileSystemFixture): Promise<Map<string, unknown>> => {
  const failed = new Map<string, unknown>();
  for (const testCase of fileSystemConformanceCases())
    await testCase.run(make()).catch((error: unknown) => failed.set(testCase.name, error));
  return failed;
};
// A memory fixture, optionally with some methods broken.
const memory = (broken: (fs: MemoryFileSystem) => Partial<MemoryFileSystem> = () => ({})): FileSystemFixture => {
  const fs = createMemoryFileSystem({ maxReadBytes: 64 });
  return { fs: { ...fs, ...broken(fs) }, symlink: fs.symlink, mkfifo: fs.mkfifo, maxReadBytes: 64 };
};

describe('fileSystemConformanceCases', () => {
  it('takes node:test and vitest functions as the test API (checked by tsc)', () => {
    expectTypeOf<Pick<NodeTest, 'describe' | 'it' | 'beforeEach' | 'afterEach'>>().toExtend<ConformanceTestApi>();
    expectTypeOf({ describe, it }).toExtend<ConformanceTestApi>();
  });

  it('passes on the memory filesystem, run without any test framework', async () => {
    const names = fileSystemConformanceCases().map((testCase) => testCase.name);
    expect(names.length).toBeGreaterThanOrEqual(14);
    expect(new Set(names).size).toBe(names.length);
    expect([...(await failures(() => memory())).keys()]).toEqual([]);
  });

  it('fails a filesystem that reads missing files as empty text', async () => {
    const failed = await failures(() =>
      memory((fs) => ({ readText: async (path) => (await fs.readText(path)) ?? '' })),
    );
    expect(failed.get('reports a missing path as null from every reader')).toBeInstanceOf(AssertionError);
  });

  it('fails a filesystem whose lists are not sorted', async () => {
    const failed = await failures(() =>
      memory((fs) => ({ list: async (path) => (await fs.list(path))?.reverse() ?? null })),
    );
    expect(failed.get('lists entries sorted')).toBeInstanceOf(AssertionError);
  });

  it('fails a filesystem that waits forever on a FIFO, or reads past its cap', async () => {
    const failed = await failures(() =>
      memory((fs) => ({
        readText: async (path) =>
          (await fs.stat(path))?.type === 'other'
            ? new Promise<never>(() => undefined)
            : fs.readBytes(path, 0, 1e6).then((bytes) => (bytes === null ? null : new TextDecoder().decode(bytes))),
      })),
    );
    expect(
      failed.get('refuses a FIFO at once from every reader and writer, never waiting for the other end'),
    ).toBeInstanceOf(AssertionError);
    expect(failed.get('refuses a file over the read cap, naming it and its size')).toBeInstanceOf(AssertionError);
  });

  it('fails a filesystem whose truncate does nothing', async () => {
    const failed = await failures(() => memory(() => ({ truncate: async () => undefined })));
    expect(failed.get('truncates a regular file to a byte length, and only shortens it')).toBeInstanceOf(
      AssertionError,
    );
  });
});

describe('fileSystemConformanceCases failures and error codes', () => {
  // Every method of the memory filesystem, its rejections rethrown as plain Errors carrying only the code.
  const plainErrors = (fs: MemoryFileSystem): Partial<MemoryFileSystem> =>
    Object.fromEntries(
      (['readText', 'readBytes', 'writeText', 'appendText', 'truncate', 'remove', 'rename', 'mkdir'] as const).map(
        (name) => [
          name,
          (...args: unknown[]) =>
            (fs[name] as (...rest: unknown[]) => Promise<unknown>)(...args).catch(
              (error: { code: string; message: string }) => {
                throw Object.assign(new Error(error.message), { code: error.code });
              },
            ),
        ],
      ),
    );

  it('counts any thrown error by its code: plain Errors with code IO_ERROR pass every case', async () => {
    expect([...(await failures(() => memory(plainErrors))).keys()]).toEqual([]);
  });

  it('names the case and the rule in words, with what was expected and what came', async () => {
    const failed = await failures(() => memory(() => ({ truncate: async () => undefined })));
    const error = failed.get('truncates a regular file to a byte length, and only shortens it') as Error;
    expect(error.message).toBe(
      'FileSystem conformance, "truncates a regular file to a byte length, and only shortens it": ' +
        'truncate keeps the first size bytes: expected "{\\"n\\":1}\\n{\\"n\\":2}\\n", got "{\\"n\\":1}\\n{\\"n\\":2}\\n{\\"n\\":"',
    );
    const grown = await failures(() =>
      memory((fs) => ({
        truncate: async (path, size) => (size > 100 ? fs.appendText(path, 'x'.repeat(984)) : fs.truncate(path, size)),
      })),
    );
    expect((grown.get('truncates a regular file to a byte length, and only shortens it') as Error).message).toContain(
      'truncate to a size past the end leaves the file as it is (it only shortens): expected 16, got 1000',
    );
  });

  it('says which code it expected and what came instead, and wraps an unexpected throw with its cause', async () => {
    const wrongCode = await failures(() =>
      memory((fs) => ({
        remove: (path) =>
          fs.remove(path).catch(() => {
            throw Object.assign(new Error('not empty'), { code: 'ENOTEMPTY' });
          }),
      })),
    );
    expect(
      (wrongCode.get('removes files and empty directories; missing is fine; a full directory is an IO_ERROR') as Error)
        .message,
    ).toContain(
      'remove of a directory that is not empty throws IO_ERROR: expected an error with code IO_ERROR, got ENOTEMPTY: not empty',
    );
    const thrown = new Error('disk on fire');
    const broken = await failures(() => memory(() => ({ mkdir: async () => Promise.reject(thrown) })));
    const failure = broken.get('makes directories recursively and idempotently') as Error;
    expect(failure).toBeInstanceOf(AssertionError);
    expect(failure.message).toContain('the filesystem threw where the contract expects success (Error: disk on fire)');
    expect(failure.cause).toBe(thrown);
  });
});

describe('describeFileSystemConformance', () => {
  // Registers the suite through a recording API and returns its tests and what the fixtures did.
  const register = (make: () => FileSystemFixture, withHooks: boolean) => {
    const tests: { name: string; fn: () => Promise<void> }[] = [];
    const hooks: (() => Promise<void> | void)[][] = [[], []];
    const log = { made: 0, cleaned: 0, suites: [] as string[] };
    const api: ConformanceTestApi = {
      describe: (name, fn) => {
        log.suites.push(name);
        fn();
      },
      it: (name, fn) => void tests.push({ name, fn }),
      ...(withHooks
        ? {
            beforeEach: (fn: () => Promise<void> | void) => void hooks[0]?.push(fn),
            afterEach: (fn: () => Promise<void> | void) => void hooks[1]?.push(fn),
          }
        : {}),
    };
    const factory = async (): Promise<FileSystemFixture> => {
      log.made++;
      return { ...make(), cleanup: async () => void log.cleaned++ };
    };
    describeFileSystemConformance('fake', factory, api);
    const run = async (fn: () => Promise<void> | void) => {
      for (const hook of hooks[0] ?? []) await hook();
      try {
        await fn();
      } finally {
        for (const hook of hooks[1] ?? []) await hook();
      }
    };
    return { tests, log, run };
  };

  it.each([true, false])(
    'registers every case and makes and cleans a fixture per test (hooks: %s)',
    async (withHooks) => {
      const { tests, log, run } = register(() => memory(), withHooks);
      expect(log.suites).toEqual(['FileSystem conformance: fake']);
      expect(tests.map((test) => test.name)).toEqual(fileSystemConformanceCases().map((testCase) => testCase.name));
      for (const test of tests) await run(test.fn);
      expect(log).toMatchObject({ made: tests.length, cleaned: tests.length });
    },
  );

  it('makes a registered test fail, and still cleans up, on a broken filesystem', async () => {
    const { tests, log, run } = register(
      () => memory((fs) => ({ list: async (path) => (await fs.list(path))?.reverse() ?? null })),
      false,
    );
    const sorted = tests.find((test) => test.name === 'lists entries sorted');
    await expect(run(sorted?.fn ?? (() => undefined))).rejects.toBeInstanceOf(AssertionError);
    expect(log).toMatchObject({ made: 1, cleaned: 1 });
  });
});
