import { GoalLoopError } from '../errors.js';

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
 * The filesystem port. Rooted at a project root: every path is relative to it,
 * POSIX style (`a/b.json`). A missing file is `null`, never an exception;
 * exceptions are for real faults and carry a `code`.
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
  /** The whole file as UTF-8 text, or `null` when it does not exist. */
  readText(path: string): Promise<string | null>;
  /**
   * Up to `length` bytes starting at byte `position`, or `null` when the file
   * does not exist. Used to read large logs from the end.
   */
  readBytes(path: string, position: number, length: number): Promise<Uint8Array | null>;
  /** Replaces the file atomically (temp file, fsync, rename); creates parent directories. */
  writeText(path: string, text: string): Promise<void>;
  /** Appends `text` in a single write (O_APPEND); creates the file and its parents. */
  appendText(path: string, text: string): Promise<void>;
  /**
   * Creates the file with `text` only if nothing exists at `path`; `false`
   * when something does. Creates parent directories.
   */
  createExclusive(path: string, text: string): Promise<boolean>;
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
}

/**
 * Refuses a `readBytes` range that cannot be read (not a non-negative
 * integer position and length), as every implementation must.
 *
 * @internal
 */
export function checkByteRange(position: number, length: number): void {
  if (!Number.isSafeInteger(position) || position < 0 || !Number.isSafeInteger(length) || length < 0) {
    throw new GoalLoopError(
      'INVALID_OPTIONS',
      `readBytes needs a non-negative integer position and length (got ${position}, ${length})`,
    );
  }
}
