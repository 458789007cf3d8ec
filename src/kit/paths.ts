/** Lexical POSIX path helpers for the containment rule. */

/** True when `path` is absolute in POSIX terms (starts with `/`). @internal */
export function isAbsolutePath(path: string): boolean {
  return path.startsWith('/');
}

// Most paths arrive normalised: one regex test spares the split and the join.
const NEEDS_NORMALISING = /\/\/|(^|\/)\.{1,2}(\/|$)|\/$/;

/** Normalises a POSIX path. @internal */
export function normalizePath(path: string): string {
  if (path !== '' && !NEEDS_NORMALISING.test(path)) return path;
  const absolute = isAbsolutePath(path);
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!absolute) out.push('..');
      continue;
    }
    out.push(segment);
  }
  if (absolute) return `/${out.join('/')}`;
  return out.length === 0 ? '.' : out.join('/');
}

/** Joins segments with `/` and normalises the result (like `path.posix.join`: an absolute later segment does not reset the path). @internal */
export function joinPath(...segments: readonly string[]): string {
  return normalizePath(segments.filter((segment) => segment !== '').join('/'));
}

/** Resolves `path` against the directory `base`: an absolute `path` stands on its own, a relative one is joined to `base`. @internal */
export function resolvePath(base: string, path: string): string {
  return isAbsolutePath(path) ? normalizePath(path) : joinPath(base, path);
}

/** True when `path` is `dir` itself or lies under it, lexically (after normalising both). @internal */
export function isInside(path: string, dir: string): boolean {
  const child = normalizePath(path);
  const parent = normalizePath(dir);
  if (isAbsolutePath(child) !== isAbsolutePath(parent)) return false;
  if (child === parent) return true;
  const prefix = parent === '/' ? '/' : parent === '.' ? '' : `${parent}/`;
  if (!child.startsWith(prefix)) return false;
  // What follows the prefix must not climb back out (`../..` is not inside `..`).
  const rest = child.slice(prefix.length);
  return rest !== '..' && !rest.startsWith('../');
}

/**
 * The relative path that leads from the absolute directory `from` to the absolute path `to` (`.` when equal, `../x`
 * when `to` lies beside). @internal
 */
export function relativePath(from: string, to: string): string {
  const fromSegments = splitSegments(from);
  const toSegments = splitSegments(to);
  let common = 0;
  while (common < fromSegments.length && common < toSegments.length && fromSegments[common] === toSegments[common])
    common += 1;
  const ups = fromSegments.slice(common).map(() => '..');
  return joinPath(...ups, ...toSegments.slice(common));
}

/** The parent directory of a normalised path. @internal */
export function parentPath(path: string): string {
  const normal = normalizePath(path);
  if (normal === '.' || normal === '/') return normal;
  if (normal === '..' || normal.endsWith('/..')) return `${normal}/..`;
  const index = normal.lastIndexOf('/');
  if (index < 0) return '.';
  return index === 0 ? '/' : normal.slice(0, index);
}

// Splits a path into its normalised non-empty segments.
function splitSegments(path: string): string[] {
  return normalizePath(path)
    .split('/')
    .filter((segment) => segment !== '');
}
