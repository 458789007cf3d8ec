// Reads one library-owned file under the containment rule without throwing for bad input.
import { GoalLoopError, isGoalLoopError, isInvalidUtf8Error } from '../errors.js';
import type { FileSystem } from '../ports/file-system.js';
import { type RealpathCache, resolveContainedPath } from './containment.js';

/** A contained read's text, `null` when missing, or why it was not read (`refused`: outside the project). @internal */
export type ContainedRead = string | null | { readonly error: string; readonly refused?: true };

/** The message of a read that failed (a directory where a file belongs, a path the OS refuses, a permission). @internal */
export function failureOf(error: unknown): string {
  return isGoalLoopError(error) || error instanceof Error ? error.message : String(error);
}

/** Refuses paths resolving outside the project, never opens non-files; `IO_ERROR` becomes `{ error }`, faults throw. @internal */
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

/** Text, `null` when missing, or the `IO_ERROR` as a value to report; other errors (faults) propagate. @internal */
export async function readTextOrRefusal(fs: FileSystem, path: string): Promise<string | null | GoalLoopError> {
  try {
    return await fs.readText(path);
  } catch (error) {
    if (isGoalLoopError(error, 'IO_ERROR')) return error;
    throw error;
  }
}

/** For readers that refuse a bad document: bad UTF-8 is the document's fault (`INVALID_CONTRACT`), not the disk's. @internal */
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
