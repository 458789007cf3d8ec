import type { FileSystem } from '../ports/file-system.js';

/**
 * What the factory of {@link describeFileSystemConformance} gives each test: a
 * fresh, empty filesystem, a way to make symlinks and FIFOs (without one, the
 * cases that need it return early and pass), the read cap the filesystem was
 * made with, and a cleanup.
 *
 * @public
 */
export interface FileSystemFixture {
  readonly fs: FileSystem;
  /** Creates a symlink at `path` (relative to the root) pointing to `target` (relative to the link's directory). */
  readonly symlink?: (target: string, path: string) => Promise<void>;
  /** Creates a named pipe (FIFO) at `path` (relative to the root); the FIFO cases check that nothing waits on it. */
  readonly mkfifo?: (path: string) => Promise<void>;
  /**
   * The `readText` size cap `fs` was made with, kept small (a few KiB) so the
   * case can write a file one byte over it; without it the cap case passes.
   */
  readonly maxReadBytes?: number;
  readonly cleanup?: () => Promise<void>;
}
