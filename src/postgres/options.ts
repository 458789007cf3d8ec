import { type Issue, optionKeyIssues, refuseOptions } from '../errors.js';
import { isAbsolutePath, normalizePath } from '../kit/paths.js';
import type { PostgresClient } from './schema.js';

/** Options of `createPostgresFileSystem`. @public */
export interface PostgresFileSystemOptions {
  /** Anything with `query(text, params)`: a `pg` `Pool` (or `Client`), or a PGlite instance. */
  readonly client: PostgresClient;
  /** The absolute POSIX path this filesystem is rooted at (`/projects/shop`): every path is relative to it. */
  readonly root: string;
  /** The most bytes `readText` reads from one file; a larger file is an `IO_ERROR` (default 256 MiB). */
  readonly maxReadBytes?: number;
}

const KEYS = Object.keys({ client: true, root: true, maxReadBytes: true } satisfies Record<
  keyof PostgresFileSystemOptions,
  true
>);

// The issues of each field given wrong (the keys are checked apart).
function fieldIssues(options: Partial<Record<keyof PostgresFileSystemOptions, unknown>>): Issue[] {
  const issues: Issue[] = [];
  const client = options.client as { query?: unknown } | undefined;
  if (typeof client !== 'object' || client === null || typeof client.query !== 'function')
    issues.push({ code: 'invalid_type', path: ['client'], message: 'client must have a query(text, params) method' });
  if (typeof options.root !== 'string' || !isAbsolutePath(options.root))
    issues.push({
      code: 'invalid_value',
      path: ['root'],
      message: 'root must be an absolute POSIX path such as /runs',
    });
  const cap = options.maxReadBytes;
  if (cap !== undefined && !(typeof cap === 'number' && Number.isSafeInteger(cap) && cap >= 0))
    issues.push({
      code: 'invalid_value',
      path: ['maxReadBytes'],
      message: 'maxReadBytes must be a non-negative integer',
    });
  return issues;
}

/** Refuses options a Postgres filesystem cannot be made with. @internal */
export function checkPostgresOptions(options: PostgresFileSystemOptions): {
  readonly client: PostgresClient;
  readonly root: string;
  readonly maxReadBytes: number;
} {
  const keys = optionKeyIssues(options, KEYS);
  refuseOptions(
    'createPostgresFileSystem',
    keys[0]?.code === 'invalid_type' ? keys : [...keys, ...fieldIssues(options)],
  );
  return {
    client: options.client,
    root: normalizePath(options.root),
    maxReadBytes: options.maxReadBytes ?? 256 * 1024 * 1024,
  };
}
