// Reading one file the library owns under the containment rule, without throwing: its text, null when it is missing,
// or why it was not read (refused: it resolves outside the project; or unreadable: not a regular file, a failed read).
import { GoalLoopError, isGoalLoopError, isInvalidUtf8Error } from '../errors.js';
import type { FileSystem } from '../ports/file-system.js';
import { type RealpathCache, resolveContainedPath } from './containment.js';

/**
 * What reading one file under the containment rule gave: its text, `null`
 * when it is missing, or why it was not read (`refused` when it resolves
 * outside the project). @internal
 */
export type ContainedRead = string | null | { readonly error: string; readonly refused?: true };

/** The message of a read that failed (a directory where a file belongs, a path the OS refuses, a permission). @internal */
export function failureOf(error: unknown): string {
  return isGoalLoopError(error) || error instanceof Error ? error.message : String(error);
}

/**
 * Reads one file under the containment rule: a path that resolves outside
 * the project (a symlink out included) is refused and never read; anything
 * but a regular file (a directory, a FIFO, a device) is not opened; a read
 * the filesystem refused (`IO_ERROR`) is `{ error }`. Any other error (a
 * fault of the filesystem's code) propagates.
 *
 * @param fs - The project's filesystem.
 * @param path - The file, relative to the root.
 * @param cache - Folder realpaths shared with the other reads of one pass (default: none shared).
 * @internal
 */
export async function readContainedText(
  fs: FileSystem,
  path: string,
  cache: RealpathCache = new Map(),
): Promise<ContainedRead> {
  try {
    const fact = await resolveContainedPath(fs, path, { cache });
    if (fact.state === 'refused') return { error: `refused, not read: ${fact.detail}`, refused: true };
    if (fact.state === 'missing') return null;
    if (fact.type !== 'file')
      return {
        error: `"${path}" is ${fact.type === 'directory' ? 'a directory' : 'a special file (a FIFO, socket or device)'}, not a regular file`,
      };
    return await fs.readText(fact.path);
  } catch (error) {
    // A read the filesystem refused (IO_ERROR) is why the file was not read; anything else is a fault, not input.
    if (!isGoalLoopError(error, 'IO_ERROR')) throw error;
    return { error: failureOf(error) };
  }
}

/**
 * A file's text, `null` when it is missing, or the filesystem's refusal to
 * read it (an `IO_ERROR`: a FIFO, a directory, bytes that are not UTF-8) as a
 * value for the caller to report; any other error (a fault, not input)
 * propagates. @internal
 */
export async function readTextOrRefusal(fs: FileSystem, path: string): Promise<string | null | GoalLoopError> {
  try {
    return await fs.readText(path);
  } catch (error) {
    if (isGoalLoopError(error, 'IO_ERROR')) return error;
    throw error;
  }
}

/**
 * A document's text for a reader that refuses a bad document (metrics.json before the loop writes it, goal-verdict.json
 * before a verdict is added): `null` when it is missing; bytes that are not UTF-8 are the document's fault, not the
 * disk's, so they are `INVALID_CONTRACT` naming the file and the byte, with "fix it" advice; any other fault
 * propagates. @internal
 */
export async function readDocumentText(fs: FileSystem, path: string, advice: string): Promise<string | null> {
  try {
    return await fs.readText(path);
  } catch (error) {
    if (!isInvalidUtf8Error(error)) throw error;
    const message = `${path} is not valid UTF-8 text (${error.message})`;
    throw new GoalLoopError('INVALID_CONTRACT', `${message}; ${advice}`, {
      issues: [{ code: 'invalid_utf8', path: [], message }],
      cause: error,
    });
  }
}
