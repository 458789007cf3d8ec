import type { EvidenceFact, PathFact } from '../kit/path-facts.js';
import { isAbsolutePath, normalizePath, parentPath } from '../kit/paths.js';
import type { FileSystem } from '../ports/file-system.js';
import { containLexically, insideRoot, type Refusal } from './containment-lexical.js';

/**
 * Options of {@link resolveContainedPath}.
 *
 * @public
 */
export interface ContainmentOptions {
  /**
   * What a relative path is relative to: `'root'` (the default; also `'.'`)
   * for the project root, or a run directory (relative to the root). A
   * directory literally named `root` is written `./root`.
   */
  readonly base?: 'root' | (string & {});
  /**
   * Resolved directories shared by the calls of one evaluation, so a thousand
   * files in one folder cost one `stat` each plus one `realpath` for the folder.
   * Create it with `new Map()`; do not keep it across evaluations.
   */
  readonly cache?: RealpathCache;
}

/** Directory realpaths resolved so far (see {@link ContainmentOptions.cache}). @public */
export type RealpathCache = Map<string, Promise<string | null>>;

/**
 * The one containment rule for a path named by a contract. The path
 * must lie inside the project root (`fs.root`) lexically and after every
 * symlink is resolved; it is refused, with a sentence naming it, when it is
 * absolute and outside the root, when `..` climbs out of the root (checked
 * before touching the filesystem), or when a symlink leads out (also for a
 * missing file under a symlinked directory). Otherwise it is `missing`, or
 * `present` with the type of the resolved target and its resolved path
 * relative to the root.
 *
 * @param fs - The project's filesystem.
 * @param path - The path as the contract wrote it (relative, or absolute).
 * @param options - `base`: resolve relative paths against the root or a run dir.
 * @example
 * ```ts
 * const fact = await resolveContainedPath(fs, 'artifacts/plan.json', { base: '.goal-loop/runs/r-42' });
 * if (fact.state === 'refused') console.warn(fact.detail);
 * ```
 * @public
 */
export async function resolveContainedPath(
  fs: FileSystem,
  path: string,
  options: ContainmentOptions = {},
): Promise<PathFact> {
  const outcome = await contain(
    fs,
    path,
    options.base === undefined || options.base === 'root' ? '.' : options.base,
    options.cache ?? new Map(),
  );
  return outcome.state === 'refused' ? { state: 'refused', reason: outcome.reason, detail: outcome.detail } : outcome;
}

/**
 * Checks one evidence path of an agent claim: a relative path is
 * tried against the run dir first, then the project root; the first place
 * where it exists decides, and it must be a regular file there, inside the
 * project after resolving symlinks. A symlink leading out refuses the claim
 * outright; a `..` escape only rules out that base. An absolute path must lie
 * inside the root.
 *
 * @param fs - The project's filesystem.
 * @param runDir - The run directory, relative to the root.
 * @param path - The evidence path as the agent wrote it.
 * @param cache - Folder realpaths shared with the other paths of one evaluation (see {@link ContainmentOptions.cache}).
 * @public
 */
export async function resolveEvidencePath(
  fs: FileSystem,
  runDir: string,
  path: string,
  cache: RealpathCache = new Map(),
): Promise<EvidenceFact> {
  const bases = isAbsolutePath(path) ? ['.'] : [runDir, '.'];
  const escapes: string[] = [];
  for (const base of bases) {
    const fact = await contain(fs, path, base, cache);
    if (fact.state === 'missing') continue;
    if (fact.state === 'refused') {
      if (fact.reason === 'symlink' || fact.reason === 'invalid') return { ok: false, detail: fact.detail };
      escapes.push(fact.detail);
      continue;
    }
    if (fact.type !== 'file')
      return {
        ok: false,
        detail: `evidence "${path}" is a ${fact.type === 'directory' ? 'directory' : 'special file'} ("${fact.path}"), not a regular file`,
      };
    return { ok: true, detail: `evidence "${path}" is the file "${fact.path}"` };
  }
  const where = bases.length === 2 ? `the run dir "${runDir}" or the project root` : 'the project root';
  return { ok: false, detail: [`evidence "${path}" does not exist in ${where}`, ...escapes].join('; ') };
}

// Applies the whole rule: lexical containment first, then realpath containment, then the target's type.
async function contain(
  fs: FileSystem,
  path: string,
  base: string,
  cache: RealpathCache,
): Promise<Refusal | Exclude<PathFact, { state: 'refused' }>> {
  const lexical = containLexically(fs.root, path, base);
  if (typeof lexical !== 'string') return lexical;
  const own = await fs.stat(lexical);
  if (own === null) {
    const escaped = await escapingAncestor(fs, lexical, cache);
    if (escaped === null) return { state: 'missing', path: lexical };
    return symlinkRefusal(
      `path "${path}" leads through a symlink at "${escaped.at}" to "${escaped.to}", outside the project root`,
    );
  }
  // Not a symlink itself: only its folder can lead elsewhere, and folders are resolved once per evaluation.
  const resolved =
    own.type === 'symlink' ? await realpathOf(fs, lexical) : throughFolder(lexical, await folderOf(fs, lexical, cache));
  if (resolved === null) return { state: 'missing', path: lexical };
  if (!insideRoot(resolved))
    return symlinkRefusal(`path "${path}" resolves through a symlink to "${resolved}", outside the project root`);
  const stat = own.type === 'symlink' ? await fs.stat(resolved) : own;
  if (stat === null) return { state: 'missing', path: resolved };
  return {
    state: 'present',
    path: resolved,
    type: stat.type === 'file' || stat.type === 'directory' ? stat.type : 'other',
  };
}

// The real path (normalised, relative to the root) of the folder an entry is in, resolved once per cache.
function folderOf(fs: FileSystem, path: string, cache: RealpathCache): Promise<string | null> {
  const slash = path.lastIndexOf('/');
  return cachedRealpath(fs, slash < 0 ? '.' : path.slice(0, slash), cache);
}

// The real path of an entry that is not a symlink: the real path of its folder joined with its name.
function throughFolder(path: string, folder: string | null): string | null {
  if (path === '.') return '.';
  if (folder === null) return null;
  const name = path.slice(path.lastIndexOf('/') + 1);
  return folder === '.' ? name : folder.endsWith('/') ? `${folder}${name}` : `${folder}/${name}`;
}

// fs.realpath of a folder, normalised, resolved once per cache.
function cachedRealpath(fs: FileSystem, folder: string, cache: RealpathCache): Promise<string | null> {
  let pending = cache.get(folder);
  if (pending === undefined) {
    pending = folder === '.' ? Promise.resolve('.') : realpathOf(fs, folder);
    cache.set(folder, pending);
  }
  return pending;
}

// fs.realpath, normalised.
async function realpathOf(fs: FileSystem, path: string): Promise<string | null> {
  const resolved = await fs.realpath(path);
  return resolved === null ? null : normalizePath(resolved);
}

// For a missing path: the nearest existing ancestor, when a symlink carries it outside the root.
async function escapingAncestor(
  fs: FileSystem,
  path: string,
  cache: RealpathCache,
): Promise<{ at: string; to: string } | null> {
  for (let dir = parentPath(path); dir !== '.'; dir = parentPath(dir)) {
    const resolved = await cachedRealpath(fs, dir, cache);
    if (resolved === null) continue;
    return insideRoot(resolved) ? null : { at: dir, to: resolved };
  }
  return null;
}

// A refusal for a symlink that leads out of the root.
function symlinkRefusal(detail: string): Refusal {
  return { state: 'refused', reason: 'symlink', detail };
}
