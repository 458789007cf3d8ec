import type { ProcessProbe } from './process-probe.js';

/**
 * What {@link FileSystem.stat} reports about a path (without following a final
 * symlink: a symlink reports `type: 'symlink'`).
 *
 * @public
 */
export interface FileStat {
  readonly type: 'file' | 'directory' | 'symlink' | 'other';
  /** Size in bytes (for a symlink, the link itself). */
  readonly size: number;
  /** Last modification time, milliseconds since the epoch. */
  readonly mtimeMs: number;
}

/**
 * A precondition of a guarded change ({@link FileSystem.guarded}): the file at
 * `path` holds exactly `text` (`null`: nothing is at `path`).
 *
 * @public
 */
export interface FileGuard {
  /** A port path (relative to the root, or absolute). */
  readonly path: string;
  /** The whole text the file must hold, or `null` when nothing may be there. */
  readonly text: string | null;
}

/**
 * The filesystem port. Rooted at a project root: every path is relative to it,
 * POSIX style (`a/b.json`). A missing file is `null`, never an exception;
 * exceptions are for real faults and carry a `code` (`IO_ERROR`, or
 * `INVALID_OPTIONS` for a bad argument); the code is the contract, not the
 * error's class (a plain `Error` with `code: 'IO_ERROR'` fits).
 *
 * Implementations: `createNodeFileSystem` (`goal-loop/node`) and
 * `createMemoryFileSystem` (`goal-loop/testing`); run
 * `describeFileSystemConformance` against your own.
 *
 * @public
 */
export interface FileSystem {
  /** The absolute POSIX path of the root (`/srv/project`; a memory filesystem uses a virtual one). */
  readonly root: string;
  /**
   * The whole file as UTF-8 text, or `null` when it does not exist. Only a
   * regular file is read (symlinks followed): a directory, FIFO, socket or
   * device is an `IO_ERROR` naming the path, raised at once (opening a FIFO
   * never waits for a writer). A file larger than the adapter's read cap is an
   * `IO_ERROR` naming the path and its size (the cap of
   * `createNodeFileSystem` is 256 MiB unless its `maxReadBytes` option says
   * otherwise). A file whose bytes are not well-formed UTF-8 is an `IO_ERROR`
   * naming the path and the byte offset of the first bad sequence, never text
   * with U+FFFD in place of the bytes. A byte order mark is kept, as U+FEFF
   * (so `JSON.parse` refuses it).
   */
  readText(path: string): Promise<string | null>;
  /**
   * Up to `length` bytes starting at byte `position`, or `null` when the file
   * does not exist. Used to read large logs from the end. Like
   * {@link FileSystem.readText}, only a regular file is read, never waiting on a FIFO.
   */
  readBytes(path: string, position: number, length: number): Promise<Uint8Array | null>;
  /**
   * Replaces the file atomically (temp file, fsync, rename); creates parent directories. With `{ sync: false }` the
   * replace is as atomic but need not be flushed to stable storage before it resolves: for a file a power loss may
   * take back to its previous text (a heartbeat, a copy the next synced write covers). An adapter may flush anyway.
   */
  writeText(path: string, text: string, options?: { readonly sync?: boolean }): Promise<void>;
  /**
   * Appends `text` in a single write (O_APPEND); creates the file and its
   * parents. Something other than a regular file at `path` (a FIFO, a
   * directory) is an `IO_ERROR`, never a wait.
   */
  appendText(path: string, text: string): Promise<void>;
  /**
   * Shortens the regular file at `path` (symlinks followed) to its first
   * `size` bytes, durably; a `size` at or past its end leaves it as it is.
   * Used to remove a torn last line of a log before the next append. A
   * missing file or anything but a regular file is an `IO_ERROR`; a `size`
   * that is not a non-negative integer is `INVALID_OPTIONS`.
   */
  truncate(path: string, size: number): Promise<void>;
  /**
   * Creates the file with `text` only if nothing exists at `path`; `false`
   * when something does. Creates parent directories. The file appears with
   * its whole text (a lock file a kill left empty is taken for no holder's).
   * `{ sync: false }` as for {@link FileSystem.writeText} (a lock file no
   * process holds after a power loss).
   */
  createExclusive(path: string, text: string, options?: { readonly sync?: boolean }): Promise<boolean>;
  /** Facts about the path itself (a symlink is not followed), or `null` when missing. */
  stat(path: string): Promise<FileStat | null>;
  /**
   * The path with every symlink resolved, relative to the root (it starts with
   * `..` or is absolute when it leads outside), or `null` when it does not
   * exist. An absolute `path` is accepted.
   */
  realpath(path: string): Promise<string | null>;
  /** The names of the entries of a directory, sorted, or `null` when it does not exist. */
  list(path: string): Promise<string[] | null>;
  /** Removes a file (or an empty directory); missing is not an error. */
  remove(path: string): Promise<void>;
  /** Renames atomically, replacing `to`. */
  rename(from: string, to: string): Promise<void>;
  /** Creates a directory and its parents; existing is not an error. */
  mkdir(path: string): Promise<void>;
  /**
   * Removes the temp files that {@link FileSystem.writeText} leaves behind when
   * its process dies mid-write (named `.<name>.<pid>.<uuid>.tmp`
   * beside their target), in `dir` (and below it with `recursive`, never
   * following a symlinked directory), when last modified more than
   * `olderThanMs` ago. Returns the removed paths (port paths, `dir/...`),
   * sorted; a missing `dir` removes nothing. Optional: an adapter whose
   * writes leave no temp files may omit it.
   */
  removeStaleTempFiles?(
    dir: string,
    options: {
      /** Only temp files last modified more than this many milliseconds ago are removed (in-flight writes are younger). */
      readonly olderThanMs: number;
      /** Also sweep the directories below `dir` (default `false`). */
      readonly recursive?: boolean;
    },
  ): Promise<string[]>;
  /**
   * The processes that share this filesystem's host: lets a run lock whose
   * holder process is gone be taken over at once, rather than once its
   * heartbeat is stale. Optional: without it (the memory filesystem, an
   * adapter that cannot see processes) only the heartbeat timeout frees a lock.
   */
  readonly processes?: ProcessProbe;
  /**
   * This filesystem with every change (write, append, truncate, exclusive
   * create, remove, rename, mkdir) made only while each of `guards` holds,
   * checked in the same atomic step as the change; a change whose guard fails
   * changes nothing and rejects with `RUN_LOCKED`. Reads are this
   * filesystem's. Optional: an adapter with a compare-and-swap (a database)
   * offers it, and the run lock then takes over a stale lock by a conditional
   * replace of the holder's record and fences each write in the write itself;
   * without it (the Node and memory adapters) the lock fences by reading its
   * file before each write.
   */
  guarded?(guards: readonly FileGuard[]): FileSystem;
}

/**
 * True for a file name an atomic write of the built-in adapters uses for its
 * temp file: `.<target name>.<pid>.<uuid>.tmp`. Pure.
 *
 * @example
 * ```ts
 * isAtomicWriteTempName('.loop-state.json.4242.0f8e7c1a-2b3c-4d5e-8f90-123456789abc.tmp'); // true
 * ```
 * @internal
 */
export function isAtomicWriteTempName(name: string): boolean {
  return TEMP_NAME.test(name);
}

const TEMP_NAME = /^\..+\.\d+\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.tmp$/;
