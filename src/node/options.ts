import { type Issue, optionKeyIssues, refuseOptions } from '../errors.js';

/** Options of {@link createExecaCommandRunner}. @public */
export interface ExecaCommandRunnerOptions {
  /** How many trailing bytes of stdout and of stderr to keep (default 65536). */
  readonly maxOutputBytes?: number;
}

/** Options of {@link createNodeFileSystem}. @public */
export interface NodeFileSystemOptions {
  /** The most bytes `readText` reads from one file; a larger file is an `IO_ERROR` (default 256 MiB). */
  readonly maxReadBytes?: number;
}

// Every option, checked against the interfaces: a key outside them is a misspelling, never ignored.
const RUNNER_KEYS = Object.keys({ maxOutputBytes: true } satisfies Record<keyof ExecaCommandRunnerOptions, true>);
const FILE_SYSTEM_KEYS = Object.keys({ maxReadBytes: true } satisfies Record<keyof NodeFileSystemOptions, true>);

// The issue of a byte count that is given but is not a non-negative integer (none when it is absent or fine).
function byteCountIssues(name: string, value: unknown): Issue[] {
  if (value === undefined || (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0)) return [];
  const got = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return [{ code: 'invalid_value', path: [name], message: `${name} must be a non-negative integer (got ${got})` }];
}

/** `INVALID_OPTIONS` with every issue when the runner is made; the output cap to use. @internal */
export function checkExecaRunnerOptions(options: ExecaCommandRunnerOptions): number {
  const cap: unknown = (options as Partial<ExecaCommandRunnerOptions> | null)?.maxOutputBytes;
  refuseOptions('createExecaCommandRunner', [
    ...optionKeyIssues(options, RUNNER_KEYS),
    ...byteCountIssues('maxOutputBytes', cap),
  ]);
  return options.maxOutputBytes ?? 65_536;
}

// The issue of a root that is not a non-empty string (Node would throw its own ERR_INVALID_ARG_TYPE, naming no option).
function rootIssues(root: unknown): Issue[] {
  if (typeof root === 'string' && root !== '') return [];
  const got =
    typeof root === 'string'
      ? 'an empty string'
      : root === null || typeof root !== 'object'
        ? String(root)
        : 'an object';
  return [{ code: 'invalid_type', path: ['root'], message: `root must be a non-empty directory path (got ${got})` }];
}

/** `INVALID_OPTIONS` with every issue when the filesystem is made; the read cap, `fallback` when none. @internal */
export function checkNodeFileSystemOptions(root: unknown, options: NodeFileSystemOptions, fallback: number): number {
  const cap: unknown = (options as Partial<NodeFileSystemOptions> | null)?.maxReadBytes;
  refuseOptions('createNodeFileSystem', [
    ...rootIssues(root),
    ...optionKeyIssues(options, FILE_SYSTEM_KEYS),
    ...byteCountIssues('maxReadBytes', cap),
  ]);
  return options.maxReadBytes ?? fallback;
}
