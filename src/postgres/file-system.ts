import { requireNonNegativeIntegers } from '../errors.js';
import { isAbsolutePath, joinPath, normalizePath, parentPath, relativePath } from '../kit/paths.js';
import { invalidUtf8Detail } from '../kit/utf8.js';
import type { FileGuard, FileStat, FileSystem } from '../ports/file-system.js';
import { entryPaths } from './entry-paths.js';
import { checkPostgresOptions, type PostgresFileSystemOptions } from './options.js';
import { ensureSchema } from './schema.js';
import { fromSqlError, postgresIoError } from './sql-errors.js';

type Row = Record<string, unknown>;

// The largest value of a Postgres integer (a bytea is at most 1 GiB, so no offset reaches it).
const INT_MAX = 2 ** 31 - 1;

const encoder = new TextEncoder();
// Strict, and keeping a byte order mark, as the Node adapter reads.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

// A bytea column as bytes: pg gives a Buffer, PGlite a Uint8Array (both are Uint8Arrays).
const bytesOf = (value: unknown): Uint8Array => (value instanceof Uint8Array ? value : new Uint8Array(0));

/** The {@link FileSystem} port over a PostgreSQL database. @internal */
export function postgresFileSystem(options: PostgresFileSystemOptions): FileSystem {
  const { client, root, maxReadBytes } = checkPostgresOptions(options);
  const paths = entryPaths(root);
  let ready: Promise<void> | null = null;
  // Each operation is one statement; the schema is made (or migrated) before the first, once.
  const run = async (operation: string, path: string, text: string, params: unknown[]): Promise<Row[]> => {
    try {
      ready ??= ensureSchema(client, root, parentPath(root), root.slice(root.lastIndexOf('/') + 1)).catch((error) => {
        ready = null;
        throw error;
      });
      await ready;
      return (await client.query(text, params)).rows as Row[];
    } catch (error) {
      throw fromSqlError(error, operation, path);
    }
  };
  const one = async (operation: string, path: string, text: string, params: unknown[]): Promise<Row | undefined> =>
    (await run(operation, path, text, params))[0];

  // The regular file's bytes as the query gave them, or null when missing; a directory is an IO_ERROR.
  const fileBytes = async (operation: string, path: string, text: string, params: unknown[]) => {
    const row = await one(operation, path, text, params);
    if (row === undefined) return null;
    if (row.kind !== 'file') throw postgresIoError('EISDIR', operation, path);
    return row;
  };
  const reads = {
    root,
    readText: async (path: string) => {
      const row = await fileBytes('read', path, READ_TEXT, [paths.row(path, 'read'), maxReadBytes]);
      if (row === null) return null;
      const size = Number(row.size);
      if (size > maxReadBytes)
        throw postgresIoError(
          'EFBIG',
          'read',
          path,
          `the file holds ${size} bytes, over the read cap of ${maxReadBytes} bytes (maxReadBytes)`,
        );
      const data = bytesOf(row.content);
      try {
        return decoder.decode(data);
      } catch {
        throw postgresIoError('EILSEQ', 'read', path, `the file is not valid UTF-8, at ${invalidUtf8Detail(data)}`);
      }
    },
    readBytes: async (path: string, position: number, length: number) => {
      requireNonNegativeIntegers('readBytes', { position, length });
      const row = await fileBytes('read', path, READ_BYTES, [
        paths.row(path, 'read'),
        Math.min(position, INT_MAX - 1) + 1,
        Math.min(length, INT_MAX),
      ]);
      return row === null ? null : bytesOf(row.content).slice();
    },
    stat: async (path: string): Promise<FileStat | null> => {
      const row = await one('stat', path, STAT, [paths.row(path, 'stat')]);
      if (row === undefined) return null;
      return { type: row.kind === 'file' ? 'file' : 'directory', size: Number(row.size), mtimeMs: Number(row.mtime) };
    },
    realpath: async (path: string) => {
      const absolute = isAbsolutePath(path) ? normalizePath(path) : joinPath(root, path);
      const relative = relativePath(root, absolute);
      // Out of the root nothing is known: the lexical path says where it leads, and containment refuses it.
      if (relative === '..' || relative.startsWith('../')) return relative;
      return (await one('realpath', path, STAT, [absolute])) === undefined ? null : relative;
    },
    list: async (path: string) => {
      const row = await one('list', path, LIST, [paths.row(path, 'list')]);
      if (row?.kind !== 'directory' || !Array.isArray(row.names)) return null;
      return (row.names as string[]).sort();
    },
  };
  return changes(reads, []);

  // The filesystem whose every change holds `guards` (none: unguarded).
  function changes(base: typeof reads, guards: readonly FileGuard[]): FileSystem {
    const guard = JSON.stringify(guards.map(({ path, text }) => [paths.row(path, 'guard'), text]));
    const write = async (operation: string, path: string, text: string, mode: string): Promise<boolean> => {
      const target = paths.row(path, operation);
      if (target === root) throw postgresIoError('EISDIR', operation, path);
      const row = await one(operation, path, WRITE, [
        target,
        paths.parentsOf(target),
        encoder.encode(text),
        mode,
        guard,
      ]);
      return row?.done === true;
    };
    return {
      ...base,
      writeText: async (path, text) => void (await write('write', path, text, 'replace')),
      appendText: async (path, text) => void (await write('append', path, text, 'append')),
      createExclusive: (path, text) => write('create', path, text, 'exclusive'),
      truncate: async (path, size) => {
        requireNonNegativeIntegers('truncate', { size });
        await run('truncate', path, TRUNCATE, [paths.row(path, 'truncate'), Math.min(size, INT_MAX), guard]);
      },
      remove: async (path) => {
        const target = paths.row(path, 'remove');
        if (target === root) throw postgresIoError('EBUSY', 'remove', path);
        await run('remove', path, REMOVE, [target, guard]);
      },
      rename: async (from, to) => {
        const label = `${from} -> ${to}`;
        const source = paths.row(from, 'rename');
        const target = paths.row(to, 'rename');
        if (source === root || target === root) throw postgresIoError('EBUSY', 'rename', label);
        await run('rename', label, RENAME, [source, target, guard]);
      },
      mkdir: async (path) => {
        const target = paths.row(path, 'mkdir');
        await run('mkdir', path, MKDIR, [target === root ? [] : [...paths.parentsOf(target), target], guard]);
      },
      guarded: (more) => changes(base, [...guards, ...more]),
    };
  }
}

const READ_TEXT = `SELECT kind, octet_length(content) AS size,
  CASE WHEN octet_length(content) <= $2 THEN content END AS content FROM goal_loop_fs_entries WHERE path = $1`;
const READ_BYTES = `SELECT kind, substring(content FROM $2::integer FOR $3::integer) AS content
  FROM goal_loop_fs_entries WHERE path = $1`;
const STAT = `SELECT kind, coalesce(octet_length(content), 0) AS size, mtime_ms AS mtime
  FROM goal_loop_fs_entries WHERE path = $1`;
// The kind of the path's own row (a directory or not) and the names of the entries in it.
const LIST = `SELECT (SELECT kind FROM goal_loop_fs_entries WHERE path = $1) AS kind,
  ARRAY(SELECT name FROM goal_loop_fs_entries WHERE parent = $1 AND path <> $1) AS names`;
const WRITE = 'SELECT goal_loop_fs_write($1, $2::text[], $3, $4, $5::jsonb) AS done';
const TRUNCATE = 'SELECT goal_loop_fs_truncate($1, $2::integer, $3::jsonb)';
const REMOVE = 'SELECT goal_loop_fs_remove($1, $2::jsonb)';
const RENAME = 'SELECT goal_loop_fs_rename($1, $2, $3::jsonb)';
const MKDIR = 'SELECT goal_loop_fs_mkdir($1::text[], $2::jsonb)';
