import { GoalLoopError } from '../errors.js';
import { parentPath, resolvePath } from '../kit/paths.js';
import { invalidUtf8Detail } from '../kit/utf8.js';
import type { FileStat } from '../ports/file-system.js';

/** One entry of the in-memory tree, keyed by its real absolute path. @internal */
export type MemoryNode =
  | { readonly kind: 'file'; readonly data: Uint8Array; readonly buffer?: Uint8Array; readonly mtimeMs: number }
  | { readonly kind: 'directory'; readonly mtimeMs: number }
  | { readonly kind: 'symlink'; readonly target: string; readonly mtimeMs: number }
  | { readonly kind: 'fifo'; readonly mtimeMs: number };

/** Where a path lands: its real absolute path and the node there. @internal */
export interface Located {
  readonly path: string;
  readonly node: MemoryNode | undefined;
}

/** The node map behind the memory filesystem, with symlink-aware path walking. @internal */
export interface MemoryTree {
  readonly nodes: Map<string, MemoryNode>;
  /** Follows an absolute path from `/`; null when a parent is missing or not a directory. */
  walk(path: string, followLast: boolean): Located | null;
  /** Creates a directory and its parents, following symlinks like `mkdir -p`. */
  mkdirp(path: string): void;
  /** The names directly inside a real directory path (unsorted). */
  children(dir: string): string[];
}

/** Creates an empty tree holding only the directory `/`. @internal */
export function createMemoryTree(now: () => number): MemoryTree {
  const nodes = new IndexedNodes([['/', { kind: 'directory', mtimeMs: 0 }]]);

  // Walks segment by segment, resolving symlinks in every parent (and in the last one when asked).
  const walk = (path: string, followLast: boolean, hops = { count: 0 }): Located | null => {
    const segments = path.split('/').filter((segment) => segment !== '');
    let current = '/';
    let node: MemoryNode | undefined = nodes.get('/');
    for (const [index, segment] of segments.entries()) {
      if (node?.kind !== 'directory') return null;
      current = current === '/' ? `/${segment}` : `${current}/${segment}`;
      node = nodes.get(current);
      if (node?.kind === 'symlink' && (followLast || index < segments.length - 1)) {
        hops.count += 1;
        if (hops.count > 40) throw memoryIoError('ELOOP', 'resolve', path);
        const resolved = walk(resolvePath(parentPath(current), node.target), true, hops);
        if (resolved === null) return null;
        ({ path: current, node } = resolved);
      }
    }
    return { path: current, node };
  };

  // Makes the directory, first making its parent when that is missing.
  const mkdirp = (path: string): void => {
    let located = walk(path, true);
    if (located === null) {
      mkdirp(parentPath(path));
      located = walk(path, true);
    }
    if (located === null) throw memoryIoError('ENOTDIR', 'mkdir', path);
    if (located.node === undefined) nodes.set(located.path, { kind: 'directory', mtimeMs: now() });
    else if (located.node.kind !== 'directory') throw memoryIoError('EEXIST', 'mkdir', path);
  };

  // Lists the names one level under a directory (from the index: no scan of the whole tree).
  const children = (dir: string): string[] => [...(nodes.childrenOf(dir) ?? [])];

  return { nodes, walk: (path, followLast) => walk(path, followLast), mkdirp, children };
}

/** Converts a node to the port's FileStat (the node itself: a symlink is not followed). @internal */
export function toMemoryFileStat(node: MemoryNode): FileStat {
  switch (node.kind) {
    case 'file':
      return { type: 'file', size: node.data.length, mtimeMs: node.mtimeMs };
    case 'directory':
      return { type: 'directory', size: 0, mtimeMs: node.mtimeMs };
    case 'symlink':
      return { type: 'symlink', size: new TextEncoder().encode(node.target).length, mtimeMs: node.mtimeMs };
    case 'fifo':
      return { type: 'other', size: 0, mtimeMs: node.mtimeMs };
  }
}

/** An `IO_ERROR` shaped like the Node adapter's, with a Node-style `code` on the cause and an optional reason after it in the message. @internal */
export function memoryIoError(code: string, operation: string, path: string, reason?: string): GoalLoopError {
  const cause = Object.assign(new Error(`${code}: ${operation} "${path}"`), { code });
  const message = `${operation} "${path}" failed: ${code}${reason === undefined ? '' : `: ${reason}`}`;
  return new GoalLoopError('IO_ERROR', message, { cause });
}

// The tree's nodes by absolute path, with the names under each directory kept beside them.
class IndexedNodes extends Map<string, MemoryNode> {
  private index: Map<string, Set<string>> | undefined;

  override set(key: string, value: MemoryNode): this {
    super.set(key, value);
    if (key !== '/') {
      this.index ??= new Map();
      const slash = key.lastIndexOf('/');
      const parent = slash === 0 ? '/' : key.slice(0, slash);
      const names = this.index.get(parent) ?? new Set<string>();
      names.add(key.slice(slash + 1));
      this.index.set(parent, names);
    }
    return this;
  }

  override delete(key: string): boolean {
    const slash = key.lastIndexOf('/');
    this.index?.get(slash === 0 ? '/' : key.slice(0, slash))?.delete(key.slice(slash + 1));
    return super.delete(key);
  }

  // The names directly under `dir`, or undefined when none was ever made.
  childrenOf(dir: string): ReadonlySet<string> | undefined {
    return this.index?.get(dir);
  }
}

// readText refuses bytes that are not UTF-8 (a truncate can cut a character in two) and keeps a byte order mark, as the Node adapter does.
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A file's bytes as `readText` gives them: refused over the read cap (`EFBIG`) or when they are not UTF-8 (`EILSEQ`, at
 * the first bad byte), as the Node adapter refuses them. @internal
 */
export function memoryFileText(path: string, data: Uint8Array, maxReadBytes: number): string {
  if (data.length > maxReadBytes) {
    const reason = `the file holds ${data.length} bytes, over the read cap of ${maxReadBytes} bytes (maxReadBytes)`;
    throw memoryIoError('EFBIG', 'read', path, reason);
  }
  try {
    return strictDecoder.decode(data);
  } catch {
    throw memoryIoError('EILSEQ', 'read', path, `the file is not valid UTF-8, at ${invalidUtf8Detail(data)}`);
  }
}
