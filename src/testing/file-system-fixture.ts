import { type Issue, optionKeyIssues, refuseOptions } from '../errors.js';
import type { FileSystem } from '../ports/file-system.js';

/** What the factory of {@link describeFileSystemConformance} gives each test. @public */
export interface FileSystemFixture {
  readonly fs: FileSystem;
  /** Creates a symlink at `path` (relative to the root) pointing to `target` (relative to the link's directory). */
  readonly symlink?: (target: string, path: string) => Promise<void>;
  /** Creates a named pipe (FIFO) at `path` (relative to the root); the FIFO cases check that nothing waits on it. */
  readonly mkfifo?: (path: string) => Promise<void>;
  /** The `readText` size cap `fs` was made with, kept small (a few KiB) so the case can write a file one byte over it. */
  readonly maxReadBytes?: number;
  readonly cleanup?: () => Promise<void>;
}

const isFunction = (value: unknown): boolean => typeof value === 'function';
// Every fixture field with what it must be: a misspelt `maxReadBytes` would pass the read-cap case without running it.
const FIXTURE_FIELDS = {
  fs: [(value) => typeof value === 'object' && value !== null, 'a FileSystem'],
  symlink: [isFunction, 'a function'],
  mkfifo: [isFunction, 'a function'],
  maxReadBytes: [(value) => Number.isSafeInteger(value) && (value as number) >= 0, 'a non-negative integer'],
  cleanup: [isFunction, 'a function'],
} satisfies Record<keyof FileSystemFixture, readonly [(value: unknown) => boolean, string]>;

/** Refuses a fixture the conformance cases cannot trust. @internal */
export function checkFixture(fixture: unknown): void {
  const issues: Issue[] = optionKeyIssues(fixture, Object.keys(FIXTURE_FIELDS), ['fixture']);
  if (issues[0]?.code !== 'invalid_type') {
    for (const [field, [fits, kind]] of Object.entries(FIXTURE_FIELDS)) {
      const value = (fixture as Record<string, unknown>)[field];
      if ((value !== undefined || field === 'fs') && !fits(value))
        issues.push({ code: 'invalid_type', path: ['fixture', field], message: `${field} must be ${kind}` });
    }
  }
  refuseOptions('FileSystem conformance fixture', issues);
}
