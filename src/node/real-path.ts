// realpath of the Node adapter for a path below its root: when no folder or file on the way down from the root is a
// symlink, the path is already real, and an lstat per part below the root says so (realpath(3) reads every part from
// the filesystem's own root again, a readlink each). A symlink on the way, or a path outside, takes realpath(3).
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { NO_THROW_IF_MISSING } from './file-io.js';

/**
 * The path of `target` (native absolute) relative to `rootAbs` when no part of it below the root is a symlink
 * (`''` for the root itself), `null` when a part is missing, or `undefined` when realpath(3) has to answer.
 *
 * @internal
 */
export function realBelowRoot(rootAbs: string, target: string): string | null | undefined {
  const relative = nodePath.relative(rootAbs, target);
  if (relative === '') return '';
  if (relative.startsWith('..') || nodePath.isAbsolute(relative)) return undefined;
  let at = rootAbs;
  for (const part of relative.split(nodePath.sep)) {
    at = nodePath.join(at, part);
    const stats = fs.lstatSync(at, NO_THROW_IF_MISSING);
    if (stats === undefined) return null;
    if (stats.isSymbolicLink()) return undefined;
  }
  return relative;
}
