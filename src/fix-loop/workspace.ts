import { isAbsolutePath, isInside, joinPath } from '../kit/paths.js';
import type { FileSystem } from '../ports/file-system.js';
import { resolveContainedPath } from '../runtime/containment.js';

/** A session's workspace found on disk (absolute, and relative to the root), or why it cannot be used. @internal */
export type WorkspaceFact =
  | { readonly ok: true; readonly absolute: string; readonly path: string }
  | { readonly ok: false; readonly detail: string };

/**
 * The workspace a session names, by the containment rule: it must be a
 * directory inside the FileSystem root (symlinks resolved). A missing one,
 * a file, or one leading out is a sentence naming the path.
 *
 * @internal
 */
export async function findWorkspace(fs: FileSystem, workspace: string): Promise<WorkspaceFact> {
  const fact = await resolveContainedPath(fs, workspace);
  if (fact.state === 'refused') return { ok: false, detail: `workspace refused: ${fact.detail}` };
  if (fact.state === 'missing')
    return {
      ok: false,
      detail: `workspace "${workspace}" does not exist (looked for ${joinPath(fs.root, fact.path)})`,
    };
  if (fact.type !== 'directory')
    return { ok: false, detail: `workspace "${workspace}" is not a directory (${joinPath(fs.root, fact.path)})` };
  return { ok: true, absolute: joinPath(fs.root, fact.path), path: fact.path };
}

/**
 * A file the session names relative to its workspace (a test report), by the
 * containment rule: inside the workspace and the root. Returns the path
 * relative to the root, or why it is refused.
 *
 * @internal
 */
export async function workspaceFile(
  fs: FileSystem,
  workspacePath: string,
  file: string,
): Promise<{ readonly ok: true; readonly path: string } | { readonly ok: false; readonly detail: string }> {
  if (isAbsolutePath(file) || !isInside(joinPath(workspacePath, file), workspacePath))
    return { ok: false, detail: `"${file}" must be a relative path inside the workspace "${workspacePath}"` };
  const fact = await resolveContainedPath(fs, file, { base: workspacePath });
  if (fact.state === 'refused') return { ok: false, detail: fact.detail };
  return { ok: true, path: fact.path };
}
