import { GoalLoopError } from '../errors.js';
import { normalizePath, parentPath } from '../kit/paths.js';
import type { FileSystem } from '../ports/file-system.js';
import { type RealpathCache, resolveContainedPath } from '../runtime/containment.js';

/** The files of one session (the shape of `SessionPaths`, kept here so session-files.ts can use this check). */
interface SessionFilePaths {
  readonly dir: string;
  readonly state: string;
  readonly audit: string;
  readonly lock: string;
}

/**
 * A session's files after the containment rule, checked when the session is created, opened or read, before anything
 * is read or written: the sessions folder, the session's folder, its record, audit log and lock, and the escalation
 * report files beside them must stay inside the project root once symlinks are resolved. @internal
 */
export async function containSessionPaths(fs: FileSystem, paths: SessionFilePaths): Promise<SessionFilePaths> {
  const cache: RealpathCache = new Map();
  const links = new Map<string, Promise<string | null>>();
  const resolve = async (path: string): Promise<string> => {
    const fact = await resolveContainedPath(fs, path, { cache });
    const detail = fact.state === 'refused' ? fact.detail : await danglingLinkOn(fs, path, links);
    if (detail !== null) throw new GoalLoopError('IO_ERROR', `The fix session file ${path} is refused: ${detail}.`);
    return fact.state === 'refused' ? path : fact.path;
  };
  const checked = [
    parentPath(paths.dir),
    paths.dir,
    paths.state,
    paths.audit,
    paths.lock,
    `${paths.dir}/escalation.json`,
    `${paths.dir}/escalation.md`,
  ];
  // All checked at once, the first refusal in the order above reported (the folders before the files in them).
  const settled = await Promise.allSettled(checked.map(resolve));
  const resolved = settled.map((outcome) => {
    if (outcome.status === 'rejected') throw outcome.reason;
    return outcome.value;
  });
  return {
    dir: resolved[1] ?? paths.dir,
    state: resolved[2] ?? paths.state,
    audit: resolved[3] ?? paths.audit,
    lock: resolved[4] ?? paths.lock,
  };
}

// The sentence for the first dangling symlink on the path (the path itself or a folder above it), else null.
async function danglingLinkOn(
  fs: FileSystem,
  path: string,
  seen: Map<string, Promise<string | null>>,
): Promise<string | null> {
  const normal = normalizePath(path);
  const prefixes: string[] = [];
  for (let at = normal; at !== '.' && at !== '/' && !at.startsWith('..'); at = parentPath(at)) prefixes.unshift(at);
  for (const prefix of prefixes) {
    let pending = seen.get(prefix);
    if (pending === undefined) {
      pending = danglingLink(fs, prefix);
      seen.set(prefix, pending);
    }
    const detail = await pending;
    if (detail !== null) return detail;
  }
  return null;
}

// A sentence when `path` is a symlink whose target does not exist, else null.
async function danglingLink(fs: FileSystem, path: string): Promise<string | null> {
  const stat = await fs.stat(path);
  if (stat?.type !== 'symlink' || (await fs.realpath(path)) !== null) return null;
  return `"${path}" is a symlink whose target does not exist, so where it leads cannot be checked`;
}
