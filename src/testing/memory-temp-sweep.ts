// The memory filesystem's sweep of stale atomic-write temp files, with the Node adapter's rules: by name and age, in
// one directory or below it, never through a symlink.
import { GoalLoopError } from '../errors.js';
import { joinPath } from '../kit/paths.js';
import { type FileSystem, isAtomicWriteTempName } from '../ports/file-system.js';
import type { MemoryTree } from './memory-tree.js';

/** The options of a temp-file sweep, as the port takes them. @internal */
export type TempFileSweep = Parameters<NonNullable<FileSystem['removeStaleTempFiles']>>[1];

/**
 * Removes the atomic-write temp files in the directory at the absolute path `dir` (symlinks followed to it; shown as
 * `shown`; below it too with `recursive`, recursing into real directories only) last modified more than `olderThanMs`
 * before `now()`, and returns their port paths, sorted. @internal
 */
export function sweepMemoryTempFiles(
  tree: MemoryTree,
  dir: string,
  shown: string,
  sweep: TempFileSweep,
  now: () => number,
): string[] {
  if (!(sweep.olderThanMs >= 0)) {
    throw new GoalLoopError(
      'INVALID_OPTIONS',
      `olderThanMs must be a non-negative number (got ${String(sweep.olderThanMs)})`,
    );
  }
  const start = tree.walk(dir, true);
  if (start?.node?.kind !== 'directory') return [];
  const { nodes, children } = tree;
  const cutoff = now() - sweep.olderThanMs;
  const removed: string[] = [];
  // Sweeps one real directory, recursing into real subdirectories only (a symlink is never followed).
  const sweepDir = (real: string, shownDir: string): void => {
    for (const name of children(real)) {
      const key = joinPath(real, name);
      const node = nodes.get(key);
      const path = shownDir === '.' ? name : `${shownDir}/${name}`;
      if (node?.kind === 'directory' && sweep.recursive === true) sweepDir(key, path);
      else if (node?.kind === 'file' && isAtomicWriteTempName(name) && node.mtimeMs < cutoff) {
        nodes.delete(key);
        removed.push(path);
      }
    }
  };
  sweepDir(start.path, shown);
  return removed.sort();
}
