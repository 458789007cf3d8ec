import { optionKeyIssues, refuseOptions } from '../errors.js';
import { underRule } from './conformance-check.js';
import { fileContentCases } from './file-system-conformance-cases-io.js';
import { fileLimitCases } from './file-system-conformance-cases-limits.js';
import { fileTreeCases } from './file-system-conformance-cases-tree.js';
import { checkFixture, type FileSystemFixture } from './file-system-fixture.js';

export type { FileSystemFixture } from './file-system-fixture.js';

/**
 * The test-framework functions {@link describeFileSystemConformance} registers
 * its cases with. Vitest's and Jest's globals and `node:test`'s exports all fit
 * (`{ describe, it, beforeEach, afterEach }`); the framework may pass arguments
 * (a context) to the callbacks, which are ignored. Without both `beforeEach`
 * and `afterEach`, each test makes and cleans up its fixture itself.
 *
 * @public
 */
export interface ConformanceTestApi {
  describe(name: string, fn: () => void): void;
  /** The callback always returns a promise (so Jest's `it`, which takes a done-callback or a promise, fits too). */
  it(name: string, fn: () => Promise<void>): void;
  beforeEach?(fn: () => Promise<void> | void): void;
  afterEach?(fn: () => Promise<void> | void): void;
}

// Refuses an api object with a misspelt key (`beforeeach` would silently make each test build its own fixture) or a
// member that is not a function.
function checkApi(api: unknown): void {
  const issues = optionKeyIssues(api, ['describe', 'it', 'beforeEach', 'afterEach'], ['api']);
  if (issues[0]?.code !== 'invalid_type') {
    for (const name of ['describe', 'it', 'beforeEach', 'afterEach']) {
      const member = (api as Record<string, unknown>)[name];
      if (typeof member !== 'function' && (member !== undefined || name === 'describe' || name === 'it'))
        issues.push({ code: 'invalid_type', path: ['api', name], message: `${name} must be a function` });
    }
  }
  refuseOptions('describeFileSystemConformance', issues);
}

/**
 * The {@link FileSystem} conformance cases as plain data, independent of any
 * test framework: each `run` throws a `node:assert` `AssertionError` when the
 * fixture's filesystem breaks the port's contract, its message naming the case
 * and the rule in words, then what was expected and what came (an error the
 * filesystem threw where success was due is its `cause`). An expected fault
 * counts by its `code` (`IO_ERROR`), whatever class the error is.
 * The symlink, FIFO and read-cap cases return early, passing, when the
 * fixture has no `symlink`, `mkfifo` or `maxReadBytes`. `run` does not call the fixture's `cleanup`. A fixture
 * with an unknown key (`maxReadByte`) or a field of the wrong kind makes `run` throw `INVALID_OPTIONS` naming it.
 *
 * @example
 * ```ts
 * import { createMemoryFileSystem, fileSystemConformanceCases } from 'goal-loop/testing';
 * for (const testCase of fileSystemConformanceCases()) {
 *   const fs = createMemoryFileSystem();
 *   await testCase.run({ fs, symlink: fs.symlink });
 * }
 * ```
 * @public
 */
export function fileSystemConformanceCases(): readonly {
  name: string;
  run(fixture: FileSystemFixture): Promise<void>;
}[] {
  return [...fileContentCases, ...fileTreeCases, ...fileLimitCases].map(({ name, run }) => ({
    name,
    run: (fixture: FileSystemFixture) => {
      checkFixture(fixture);
      return underRule(name, () => run(fixture));
    },
  }));
}

/**
 * Registers a `describe` block, through the given test framework, that holds a
 * {@link FileSystem} implementation to the port's contract: missing is `null`,
 * atomic replace, ordered appends, exclusive create, lstat types, realpath
 * through symlinks (inside and escaping), sorted lists, remove, rename, mkdir,
 * byte ranges, UTF-8 round trips, parents created, `IO_ERROR` on real
 * faults, FIFOs and directories refused at once (never a hang), the read cap,
 * text that is not UTF-8 refused at its byte offset,
 * `truncate`, and the sweep of stale temp files (see
 * {@link fileSystemConformanceCases}). Call it from a test file; the
 * factory runs before every test. The symlink, FIFO and read-cap tests are
 * always registered and return early, passing, when the fixture has no
 * `symlink`, `mkfifo` or `maxReadBytes`. Assertions use
 * `node:assert/strict`, so this needs Node (not a browser runner). An `api`
 * with an unknown key (`beforeeach`) or a member that is not a function throws
 * `INVALID_OPTIONS` at once; a fixture with a mistake fails each test with one.
 *
 * @example
 * ```ts
 * import { describe, it, beforeEach, afterEach } from 'node:test'; // or vitest's
 * import { describeFileSystemConformance, createMemoryFileSystem } from 'goal-loop/testing';
 * describeFileSystemConformance('memory', async () => {
 *   const fs = createMemoryFileSystem({ maxReadBytes: 1024 });
 *   return { fs, symlink: fs.symlink, mkfifo: fs.mkfifo, maxReadBytes: 1024 };
 * }, { describe, it, beforeEach, afterEach });
 * ```
 * @public
 */
export function describeFileSystemConformance(
  name: string,
  factory: () => Promise<FileSystemFixture>,
  api: ConformanceTestApi,
): void {
  checkApi(api);
  const hooks = api.beforeEach !== undefined && api.afterEach !== undefined;
  api.describe(`FileSystem conformance: ${name}`, () => {
    let fixture: FileSystemFixture | undefined;
    if (hooks) {
      api.beforeEach?.(async () => {
        fixture = await factory();
      });
      api.afterEach?.(async () => {
        const done = fixture;
        fixture = undefined;
        await done?.cleanup?.();
      });
    }
    for (const testCase of fileSystemConformanceCases()) {
      api.it(testCase.name, async () => {
        if (hooks) {
          if (fixture === undefined) throw new Error('the beforeEach hook made no fixture');
          return testCase.run(fixture);
        }
        const own = await factory();
        try {
          await testCase.run(own);
        } finally {
          await own.cleanup?.();
        }
      });
    }
  });
}
