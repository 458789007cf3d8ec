// The lexical half of the containment rule, without touching the filesystem: a path on its base, normalised and
// kept inside the project root, or refused (empty, NUL, absolute outside the root, `..` out of it).
import type { PathRefusalReason } from '../kit/path-facts.js';
import { isAbsolutePath, isInside, normalizePath, relativePath, resolvePath } from '../kit/paths.js';

/** Why a path was refused: a malformed path, a lexical escape (absolute or `..`), or a symlink leading out. @internal */
export type Refusal = {
  readonly state: 'refused';
  readonly reason: Exclude<PathRefusalReason, 'run_dir'>;
  readonly detail: string;
};

/** True when a normalised path lies inside the root: relative, and not climbing out with `..`. Pure. @internal */
export function insideRoot(path: string): boolean {
  return !isAbsolutePath(path) && path !== '..' && !path.startsWith('../');
}

// Anything that makes a path not normalised: a `.` or `..` segment, an empty segment, a leading or trailing `/`.
const NOT_NORMAL = /(?:^|\/)\.{1,2}(?:\/|$)|\/\/|^\/|\/$/;

// True when `path` is relative and already normalised (normalizePath would return it unchanged, and `..` climbs nowhere).
function isNormalRelative(path: string): boolean {
  return path !== '' && !NOT_NORMAL.test(path);
}

/**
 * Applies the lexical half of the rule to `path` on `base` (both relative to the project root `root`): the
 * normalised path relative to the root, or a refusal. Pure. @internal
 */
export function containLexically(root: string, path: string, base: string): string | Refusal {
  if (path.trim() === '' || path.includes('\0'))
    return {
      state: 'refused',
      reason: 'invalid',
      detail: `path ${JSON.stringify(path)} is empty or contains a NUL character`,
    };
  if (isAbsolutePath(path)) {
    const absolute = normalizePath(path);
    if (!isInside(absolute, root))
      return {
        state: 'refused',
        reason: 'lexical',
        detail: `absolute path "${path}" is outside the project root "${root}"`,
      };
    return relativePath(root, absolute);
  }
  // The common case, a plain relative path on a plain base, needs no normalising and cannot climb out.
  if (isNormalRelative(path) && (base === '.' || isNormalRelative(base)))
    return base === '.' ? path : `${base}/${path}`;
  const joined = resolvePath(base, path);
  if (isAbsolutePath(joined)) return containLexically(root, joined, '.');
  if (!isInside(joined, '.'))
    return {
      state: 'refused',
      reason: 'lexical',
      detail: `path "${path}" escapes the project root with ".." (it resolves to "${joined}")`,
    };
  return joined;
}
