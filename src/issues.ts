// The issue: one problem found in a contract or an option, with its JSON path.
import type { z } from 'zod';

/**
 * One problem found in a contract or an option: a machine-readable `code`, the JSON `path` of the offending value (`[]`
 * for the document itself) and a human `message`. @public
 */
export interface Issue {
  readonly code: string;
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** Renders an issue path as a JSON path: `['criteria', 1, 'operator']` becomes `$.criteria[1].operator`. @public */
export function formatJsonPath(path: readonly (string | number)[]): string {
  let out = '$';
  for (const key of path) {
    out +=
      typeof key === 'number' ? `[${key}]` : /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
  }
  return out;
}

/** Renders an issue as one line: `$.criteria[1].operator: Invalid option …`. @public */
export function formatIssue(issue: Issue): string {
  return `${formatJsonPath(issue.path)}: ${issue.message}`;
}

/** What follows the first of `count` issues in a one-line message: `''` for one or none, ` (and 1 more issue)`, ` (and 2 more issues)`. @internal */
export function moreIssues(count: number): string {
  const more = count - 1;
  return more < 1 ? '' : ` (and ${more} more ${more === 1 ? 'issue' : 'issues'})`;
}

/** The result of every parser in the library: the parsed value, or every issue found (never only the first). @public */
export type ParseResult<T> =
  | { readonly success: true; readonly data: T; readonly issues: readonly Issue[] }
  | { readonly success: false; readonly issues: readonly Issue[] };

/** Converts zod's issues into the library's `{ code, path, message }` shape, each path prefixed by `base`. @internal */
export function issuesFromZod(error: z.ZodError, base: readonly (string | number)[] = []): Issue[] {
  return error.issues.map((issue) => ({
    code: issue.code,
    path: [...base, ...issue.path.map((key) => (typeof key === 'symbol' ? String(key) : key))],
    message: issue.message,
  }));
}

/** Parses JSON text into a value, or returns one `invalid_json` issue at the document root. @internal */
export function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; issue: Issue } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    // JSON.parse names a leading byte order mark as an unexpected invisible character: say what it is.
    const message = text.startsWith('\uFEFF')
      ? 'the text starts with a byte order mark (U+FEFF), which JSON does not allow: save it as UTF-8 without one'
      : error instanceof Error
        ? error.message
        : String(error);
    return { ok: false, issue: { code: 'invalid_json', path: [], message: `Not valid JSON: ${message}` } };
  }
}
