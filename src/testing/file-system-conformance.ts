import { optionKeyIssues, refuseOptions } from '../errors.js';
import { underRule } from './conformance-check.js';
import { fileContentCases } from './file-system-conformance-cases-io.js';
import { fileLimitCases } from './file-system-conformance-cases-limits.js';
import { fileTreeCases } from './file-system-conformance-cases-tree.js';
import { checkFixture, type FileSystemFixture } from './file-system-fixture.js';

export type { FileSystemFixture } from './file-system-fixture.js';

/** The test-framework functions {@link describeFileSystemConformance} registers its cases with. @public */
export interface ConformanceTestApi {
  describe(name: string, fn: () => void): void;
  /** The callback always returns a promise (so Jest's `it`, which takes a done-callback or a promise, fits too). */
  it(name: string, fn: () => Promise<void>): void;
  beforeEach?(fn: () => Promise<void> | void): void;
  afterEach?(fn: () => Promise<void> | void): void;
}

// Refuses an api object with a misspelt key (`beforeeach` would silently make each test build its own fixture) or a member that is not a function.
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

/** The `FileSystem` conformance cases as plain data, independent of any test framework. @public */
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
 * Registers a `describe` block, through the given test framework, that holds a `FileSystem` implementation to the
 * port's contract: missing is `null`, atomic replace, ordered appends, exclusive create, lstat types, realpath through
 * symlinks (inside and escaping), sorted lists, remove, rename, mkdir, byte ranges, UTF-8 round trips, parents created,
 * `IO_ERROR` on real faults, FIFOs and directories refused at once (never a hang), the read cap, text that is not UTF-8
 * refused at its byte offset, `truncate`, and the sweep of stale temp files (see {@link fileSystemConformanceCases}).
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
