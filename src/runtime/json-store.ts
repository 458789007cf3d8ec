import type { z } from 'zod';
import { formatIssue, GoalLoopError, isInvalidUtf8Error, issuesFromZod, parseJsonText } from '../errors.js';
import type { FileSystem } from '../ports/file-system.js';

/** One JSON document written atomically and read back through its schema. @internal */
export interface JsonStore<T> {
  readonly path: string;
  /** The document, or `null` when the file does not exist; `STATE_CORRUPT` when it exists but does not parse or match. */
  load(): Promise<T | null>;
  /** Writes the whole document atomically; `{ sync: false }`: not flushed to disk on its own (see FileSystem.writeText). */
  save(value: T, options?: { readonly sync?: boolean }): Promise<void>;
}

/** Only ever written atomically, so a mismatch was a hand edit: the error names the file, paths and the fix. @internal */
export function createJsonStore<S extends z.ZodType>(fs: FileSystem, path: string, schema: S): JsonStore<z.output<S>> {
  const corrupt = (what: string, issues: GoalLoopError['issues']) => {
    const named = issues.slice(0, 3).map(formatIssue).join('; ');
    return new GoalLoopError('STATE_CORRUPT', `${path} ${what} (${named}); move it aside to start afresh.`, { issues });
  };
  return {
    path,
    async load() {
      let text: string | null;
      try {
        text = await fs.readText(path);
      } catch (error) {
        // Bytes that are not UTF-8 are a corrupt record, like text that is not JSON: the same way forward.
        if (isInvalidUtf8Error(error))
          throw corrupt('is not valid UTF-8', [{ code: 'invalid_utf8', path: [], message: error.message }]);
        throw error;
      }
      if (text === null) return null;
      const json = parseJsonText(text);
      if (!json.ok) throw corrupt('is not valid JSON', [json.issue]);
      const parsed = schema.safeParse(json.value);
      if (!parsed.success) throw corrupt('does not match its schema', issuesFromZod(parsed.error));
      return parsed.data;
    },
    async save(value, options) {
      await fs.writeText(path, `${JSON.stringify(value, null, 2)}\n`, options);
    },
  };
}
