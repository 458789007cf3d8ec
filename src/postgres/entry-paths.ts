import { isAbsolutePath, isInside, joinPath, normalizePath, parentPath } from '../kit/paths.js';
import { postgresIoError } from './sql-errors.js';

/**
 * How a Postgres filesystem rooted at `root` names its rows: every port path becomes the absolute path of its row, and
 * nothing outside the root has one. @internal
 */
export interface EntryPaths {
  readonly root: string;
  /** The row path of a port path (relative to the root, or absolute); an `IO_ERROR` naming it when it leads out. */
  row(path: string, operation: string): string;
  /** The directories a write to `row` creates first: those between the root and its parent, outermost first. */
  parentsOf(row: string): string[];
}

/** The row paths of a root (an absolute POSIX path). @internal */
export function entryPaths(root: string): EntryPaths {
  const row = (path: string, operation: string): string => {
    const absolute = isAbsolutePath(path) ? normalizePath(path) : joinPath(root, path);
    if (isInside(absolute, root)) return absolute;
    throw postgresIoError(
      'EXDEV',
      operation,
      path,
      `it leads out of the root ${root}, where this filesystem holds nothing`,
    );
  };
  const parentsOf = (target: string): string[] => {
    const dirs: string[] = [];
    for (let dir = parentPath(target); dir !== root && isInside(dir, root); dir = parentPath(dir)) dirs.unshift(dir);
    return dirs;
  };
  return { root, row, parentsOf };
}
