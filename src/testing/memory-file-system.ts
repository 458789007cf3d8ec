import { requireNonNegativeIntegers } from '../errors.js';
import { isAbsolutePath, joinPath, normalizePath, parentPath, relativePath } from '../kit/paths.js';
import type { FileSystem } from '../ports/file-system.js';
import { type MemoryFileSystemOptions, validateMemoryFileSystemOptions } from './memory-file-system-options.js';
import { sweepMemoryTempFiles } from './memory-temp-sweep.js';
import type { Located, MemoryNode } from './memory-tree.js';
import { createMemoryTree, memoryFileText, memoryIoError, toMemoryFileStat } from './memory-tree.js';

/** An in-memory `FileSystem` with test helpers. @public */
export interface MemoryFileSystem extends FileSystem {
  /** Creates a symlink at `path` pointing to `target` (relative to the link's directory, or absolute). */
  symlink(target: string, path: string): Promise<void>;
  /** Creates a named pipe (FIFO) at `path`: `stat` reports it as `other`, and reading, appending to or truncating it is an `IO_ERROR`, as on Node. */
  mkfifo(path: string): Promise<void>;
  /** Always present here; it measures age with the `now` option. */
  removeStaleTempFiles: NonNullable<FileSystem['removeStaleTempFiles']>;
  /** Every regular file as path (relative to the root; `../x` outside it) → UTF-8 text, sorted by path. */
  snapshot(): Record<string, string>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Creates a `FileSystem` that lives in memory: same contract as the Node one (it passes the same conformance
 * suite), including symlinks with lstat-versus-realpath semantics, directories implied by files, exclusive create and
 * rename, FIFOs that are refused rather than read, and the same read cap.
 *
 * @example
 * ```ts
 * import { createMemoryFileSystem } from 'goal-loop/testing';
 * const fs = createMemoryFileSystem({ files: { 'runs/r1/goal.json': '{"schema_version":1}' } });
 * await fs.symlink('/etc/passwd', 'runs/r1/leak.json');
 * ```
 *
 * @public
 */
export function createMemoryFileSystem(options: MemoryFileSystemOptions = {}): MemoryFileSystem {
  validateMemoryFileSystemOptions(options);
  const root = normalizePath(options.root ?? '/project');
  const maxReadBytes = options.maxReadBytes ?? 256 * 1024 * 1024;
  let tick = 0;
  const now = options.now ?? (() => ++tick);
  const tree = createMemoryTree(now);
  const { nodes, walk, mkdirp, children } = tree;
  // Maps a port path (relative to the root, or absolute) to a normalised absolute path.
  const abs = (path: string): string => (isAbsolutePath(path) ? normalizePath(path) : joinPath(root, path));

  // Locates the entry a write replaces (parents created first); throws when it is a directory.
  const writable = (path: string, followLast: boolean, operation: string): Located => {
    mkdirp(parentPath(path));
    const located = walk(path, followLast);
    if (located === null) throw memoryIoError('ENOENT', operation, path);
    if (located.node?.kind === 'directory') throw memoryIoError('EISDIR', operation, path);
    return located;
  };
  // The regular file at a path (symlinks followed), or null when missing; anything else is an IO_ERROR.
  const regular = (path: string, operation: string): Located & { node: Extract<MemoryNode, { kind: 'file' }> } => {
    const located = walk(abs(path), true);
    if (located?.node === undefined) throw memoryIoError('ENOENT', operation, path);
    const { node } = located;
    if (node.kind === 'file') return { path: located.path, node };
    if (node.kind === 'directory')
      throw memoryIoError('EISDIR', operation, path, 'it is a directory, not a regular file');
    throw memoryIoError('ENOTREG', operation, path, 'it is a FIFO, not a regular file');
  };
  // Reads the bytes of the regular file at a path (symlinks followed), or null when missing.
  const bytesOf = (path: string): Uint8Array | null =>
    walk(abs(path), true)?.node === undefined ? null : regular(path, 'read').node.data;
  // The file node after appending `added`: the bytes go into spare capacity (doubling when full), so appends cost O(added).
  const appended = (
    before: Extract<MemoryNode, { kind: 'file' }> | undefined,
    added: Uint8Array,
  ): Extract<MemoryNode, { kind: 'file' }> => {
    const size = (before?.data.length ?? 0) + added.length;
    let buffer = before?.buffer ?? before?.data ?? new Uint8Array(0);
    if (buffer.length < size || (before !== undefined && before.buffer === undefined)) {
      const grown = new Uint8Array(Math.max(size, buffer.length * 2, 256));
      if (before !== undefined) grown.set(before.data);
      buffer = grown;
    }
    buffer.set(added, size - added.length);
    return { kind: 'file', data: buffer.subarray(0, size), buffer, mtimeMs: 0 };
  };
  // A fresh file node stamped now.
  const file = (data: Uint8Array): MemoryNode => ({ kind: 'file', data, mtimeMs: now() });

  for (const [path, text] of Object.entries(options.files ?? {})) {
    nodes.set(writable(abs(path), false, 'write').path, file(encoder.encode(text)));
  }
  mkdirp(root);

  return {
    root,
    readText: async (path) => {
      const data = bytesOf(path);
      return data === null ? null : memoryFileText(path, data, maxReadBytes);
    },
    readBytes: async (path, position, length) => {
      requireNonNegativeIntegers('readBytes', { position, length });
      const data = bytesOf(path);
      return data === null ? null : data.slice(position, position + length);
    },
    writeText: async (path, text) =>
      void nodes.set(writable(abs(path), false, 'write').path, file(encoder.encode(text))),
    appendText: async (path, text) => {
      const located = writable(abs(path), true, 'append');
      if (located.node?.kind === 'fifo')
        throw memoryIoError('ENOTREG', 'append', path, 'it is a FIFO, not a regular file');
      const before = located.node?.kind === 'file' ? located.node : undefined;
      nodes.set(located.path, { ...appended(before, encoder.encode(text)), mtimeMs: now() });
    },
    truncate: async (path, size) => {
      requireNonNegativeIntegers('truncate', { size });
      const located = regular(path, 'truncate');
      if (size < located.node.data.length) nodes.set(located.path, file(located.node.data.slice(0, size)));
    },
    createExclusive: async (path, text) => {
      mkdirp(parentPath(abs(path)));
      const located = walk(abs(path), false);
      if (located === null) throw memoryIoError('ENOENT', 'create', path);
      if (located.node !== undefined) return false;
      nodes.set(located.path, file(encoder.encode(text)));
      return true;
    },
    stat: async (path) => {
      const node = walk(abs(path), false)?.node;
      return node === undefined ? null : toMemoryFileStat(node);
    },
    realpath: async (path) => {
      const located = walk(abs(path), true);
      return located?.node === undefined ? null : relativePath(root, located.path);
    },
    list: async (path) => {
      const located = walk(abs(path), true);
      return located?.node?.kind === 'directory' ? children(located.path).sort() : null;
    },
    remove: async (path) => {
      const located = walk(abs(path), false);
      if (located?.node === undefined) return;
      if (located.path === '/' || (located.node.kind === 'directory' && children(located.path).length > 0))
        throw memoryIoError('ENOTEMPTY', 'remove', path);
      nodes.delete(located.path);
    },
    rename: async (from, to) => {
      const source = walk(abs(from), false);
      const target = walk(abs(to), false);
      const label = `${from} -> ${to}`;
      if (source?.node === undefined || target === null) throw memoryIoError('ENOENT', 'rename', label);
      if (source.path === target.path) return;
      const sourceIsDir = source.node.kind === 'directory';
      if (sourceIsDir && (target.path === '/' || target.path.startsWith(`${source.path}/`)))
        throw memoryIoError('EINVAL', 'rename', label);
      if (target.node !== undefined) {
        if (target.node.kind === 'directory' && !sourceIsDir) throw memoryIoError('EISDIR', 'rename', label);
        if (target.node.kind !== 'directory' && sourceIsDir) throw memoryIoError('ENOTDIR', 'rename', label);
        if (target.node.kind === 'directory' && children(target.path).length > 0)
          throw memoryIoError('ENOTEMPTY', 'rename', label);
      }
      const moved = [...nodes].filter(([key]) => key === source.path || key.startsWith(`${source.path}/`));
      nodes.delete(target.path);
      for (const [key] of moved) nodes.delete(key);
      for (const [key, node] of moved) nodes.set(target.path + key.slice(source.path.length), node);
    },
    mkdir: async (path) => mkdirp(abs(path)),
    symlink: async (target, path) => {
      const located = writable(abs(path), false, 'symlink');
      if (located.node !== undefined) throw memoryIoError('EEXIST', 'symlink', path);
      nodes.set(located.path, { kind: 'symlink', target, mtimeMs: now() });
    },
    mkfifo: async (path) => {
      const located = writable(abs(path), false, 'mkfifo');
      if (located.node !== undefined) throw memoryIoError('EEXIST', 'mkfifo', path);
      nodes.set(located.path, { kind: 'fifo', mtimeMs: now() });
    },
    removeStaleTempFiles: async (dir, sweep) => sweepMemoryTempFiles(tree, abs(dir), normalizePath(dir), sweep, now),
    ...(options.processes === undefined ? {} : { processes: options.processes }),
    snapshot: () => {
      const files = [...nodes].flatMap(([key, node]) =>
        node.kind === 'file' ? [[relativePath(root, key), decoder.decode(node.data)] as const] : [],
      );
      return Object.fromEntries(files.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    },
  };
}
