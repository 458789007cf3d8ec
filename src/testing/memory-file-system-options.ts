import { type Issue, optionKeyIssues, refuseOptions } from '../errors.js';
import { isAbsolutePath, normalizePath } from '../kit/paths.js';
import type { ProcessProbe } from '../ports/process-probe.js';

/** Options of {@link createMemoryFileSystem}. @public */
export interface MemoryFileSystemOptions {
  /** The virtual absolute root (default `/project`). */
  readonly root?: string;
  /** Initial files: path (relative to the root, or absolute) → UTF-8 text. Parents are implied. */
  readonly files?: Readonly<Record<string, string>>;
  /** Source of `mtimeMs` (default: a counter that ticks on every change); `removeStaleTempFiles` measures age with it. */
  readonly now?: () => number;
  /** The most bytes `readText` reads from one file; a larger file is an `IO_ERROR` (default 256 MiB, as the Node adapter). */
  readonly maxReadBytes?: number;
  /** The filesystem's `processes` (default none: a run lock is then freed only by its heartbeat timeout). */
  readonly processes?: ProcessProbe;
}

// Every option, checked against MemoryFileSystemOptions: a file map passed as the options (`{ 'a.txt': '' }`)
// has only unknown keys, and is refused rather than read as an empty filesystem.
const OPTION_KEYS = Object.keys({
  root: true,
  files: true,
  now: true,
  maxReadBytes: true,
  processes: true,
} satisfies Record<keyof MemoryFileSystemOptions, true>);

/** Refuses options a memory filesystem cannot start from. @internal */
export function validateMemoryFileSystemOptions(options: MemoryFileSystemOptions): void {
  const issues: Issue[] = optionKeyIssues(options, OPTION_KEYS);
  if (issues[0]?.code === 'invalid_type') refuseOptions('createMemoryFileSystem', issues);
  const problem = (path: (string | number)[], message: string) => issues.push({ code: 'invalid_value', path, message });
  if (options.root !== undefined) {
    if (typeof options.root !== 'string' || !isAbsolutePath(normalizePath(options.root))) {
      problem(['root'], `the root must be an absolute path (got ${JSON.stringify(options.root)})`);
    }
  }
  const { files } = options;
  if (files !== undefined) {
    if (typeof files !== 'object' || files === null || Array.isArray(files)) {
      problem(['files'], 'files must map paths to text');
    } else {
      for (const [path, text] of Object.entries(files)) {
        if (typeof text !== 'string') problem(['files', path], `the content of ${path} must be text`);
      }
    }
  }
  if (options.now !== undefined && typeof options.now !== 'function') problem(['now'], 'now must be a function');
  const cap = options.maxReadBytes;
  if (cap !== undefined && !(Number.isSafeInteger(cap) && cap >= 0)) {
    problem(['maxReadBytes'], `maxReadBytes must be a non-negative integer (got ${String(cap)})`);
  }
  const probe = options.processes as { host?: unknown; isGone?: unknown } | null | undefined;
  if (probe !== undefined && (typeof probe?.host !== 'string' || typeof probe.isGone !== 'function')) {
    problem(['processes'], 'processes must have a string host and an isGone function');
  }
  refuseOptions('createMemoryFileSystem', issues);
}
