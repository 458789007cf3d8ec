import type { z } from 'zod';
import type { Issue } from '../errors.js';

/**
 * The result of every parser in the library: the parsed value, or every issue
 * found (never only the first). Parsers never throw on bad input.
 *
 * @public
 */
export type ParseResult<T> =
  | { readonly success: true; readonly data: T; readonly issues: readonly Issue[] }
  | { readonly success: false; readonly issues: readonly Issue[] };

/**
 * Converts zod's issues into the library's `{ code, path, message }` shape,
 * each path prefixed by `base`. Pure.
 *
 * @internal
 */
export function issuesFromZod(error: z.ZodError, base: readonly (string | number)[] = []): Issue[] {
  return error.issues.map((issue) => ({
    code: issue.code,
    path: [...base, ...issue.path.map((key) => (typeof key === 'symbol' ? String(key) : key))],
    message: issue.message,
  }));
}

/**
 * Parses JSON text into a value, or returns one `invalid_json` issue at the
 * document root. Never throws. Pure.
 *
 * @internal
 */
export function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; issue: Issue } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, issue: { code: 'invalid_json', path: [], message: `Not valid JSON: ${message}` } };
  }
}
