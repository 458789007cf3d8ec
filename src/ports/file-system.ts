import type { ProcessProbe } from './process-probe.js';

/** What {@link FileSystem.stat} reports about a path (a final symlink is not followed: `type: 'symlink'`). @public */
export interface FileStat {
  readonly type: 'file' | 'directory' | 'symlink' | 'other';
  /** Size in bytes (for a symlink, the link itself). */
  readonly size: number;
  /** Last modification time, milliseconds since the epoch. */
  readonly mtimeMs: number;
}

/** A precondition of {@link FileSystem.guarded}: the file at `path` holds exactly `text` (`null`: nothing there). @public */
export interface FileGuard {
  /** A port path (relative to the root, or absolute). */
  readonly path: string;
  /** The whole text the file must hold, or `null` when nothing may be there. */
  readonly text: string | null;
}

/**
 * The filesystem port, rooted at a project root; paths are relative to it, POSIX style (`a/b.json`). A missing file is
 * `null`, never an exception; faults carry a `code` (`IO_ERROR`, or `INVALID_OPTIONS` for a bad argument), which is
 * the contract rather than the class. Implementations: `createNodeFileSystem`, `createMemoryFileSystem`; check your
 * own with `describeFileSystemConformance`.
 *
 * @public
 */
export interface FileSystem {
  /** The absolute POSIX path of the root (`/srv/project`; a memory filesystem uses a virtual one). */
  readonly root: string;
  /**
   * The whole file as UTF-8, or `null` when missing. Only a regular file is read (symlinks followed; a FIFO never
   * waits); anything else, a file over the adapter's read cap, or bytes that are not UTF-8 is an `IO_ERROR` naming the
   * path (never U+FFFD text). A byte order mark is kept as U+FEFF.
   */
  readText(path: string): Promise<string | null>;
  /** Up to `length` bytes from `position` (to read large logs from the end), or `null` when missing; regular files only. */
  readBytes(path: string, position: number, length: number): Promise<Uint8Array | null>;
  /**
   * Replaces the file atomically (temp file, fsync, rename), creating parents. `{ sync: false }`: as atomic, but a power
   * loss may take it back to its previous text.
   */
  writeText(path: string, text: string, options?: { readonly sync?: boolean }): Promise<void>;
  /** Appends `text` in one write (O_APPEND), creating the file and parents; a non-regular file is an `IO_ERROR`. */
  appendText(path: string, text: string): Promise<void>;
  /**
   * Shortens the regular file to its first `size` bytes, durably (to cut a torn last line); past the end changes
   * nothing. Missing or non-regular is `IO_ERROR`; a bad `size` is `INVALID_OPTIONS`.
   */
  truncate(path: string, size: number): Promise<void>;
  /**
   * Creates the file with its whole `text` only if nothing is at `path` (`false` otherwise), creating parents.
   * `{ sync: false }` as for {@link FileSystem.writeText}.
   */
  createExclusive(path: string, text: string, options?: { readonly sync?: boolean }): Promise<boolean>;
  /** Facts about the path itself (a symlink is not followed), or `null` when missing. */
  stat(path: string): Promise<FileStat | null>;
  /** The path with symlinks resolved, relative to the root (`..`-led or absolute outside it), or `null` when missing. */
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
   * Removes {@link FileSystem.writeText}'s temp files (`.<name>.<pid>.<uuid>.tmp`) older than `olderThanMs` in `dir`
   * (and below with `recursive`, never through symlinks); returns their paths, sorted. Optional.
   */
  removeStaleTempFiles?(
    dir: string,
    options: {
      /** Only temp files older than this many ms are removed (in-flight writes are younger). */
      readonly olderThanMs: number;
      /** Also sweep the directories below `dir` (default `false`). */
      readonly recursive?: boolean;
    },
  ): Promise<string[]>;
  /** This host's processes, so a lock whose holder is gone is taken over at once. Optional: else the heartbeat decides. */
  readonly processes?: ProcessProbe;
  /**
   * This filesystem with every change made only while each of `guards` holds, checked atomically with the change; a
   * failed guard changes nothing and rejects `RUN_LOCKED`. Optional (a database offers it): the run lock then takes
   * over and fences in one step, else it fences by reading its file before each write.
   */
  guarded?(guards: readonly FileGuard[]): FileSystem;
}

/** True for a built-in adapter's atomic-write temp name, `.<target>.<pid>.<uuid>.tmp`. Pure. @internal */
export function isAtomicWriteTempName(name: string): boolean {
  return TEMP_NAME.test(name);
}

const TEMP_NAME = /^\..+\.\d+\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.tmp$/;
