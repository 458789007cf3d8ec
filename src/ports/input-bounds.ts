import type { ToolIssue } from './tool.js';

/** The longest path a tool input takes (a run directory, a workspace), in characters: Linux's PATH_MAX. @public */
export const MAX_PATH_CHARS = 4_096;

/** The longest text a tool input holds anywhere unless its tool allows more, in characters. @public */
export const DEFAULT_MAX_TEXT_CHARS = 65_536;
// The most values (strings, numbers, objects, array items) one tool input holds: deeper schemas never walk more.
const MAX_VALUES = 100_000;

/** The first bound a raw tool input breaks, before its schema reads it. @internal */
export function inputBoundIssue(raw: unknown, maxTextChars: number): ToolIssue | null {
  const pending: Visit[] = [{ value: raw, parent: null, key: null }];
  let seen = 0;
  while (pending.length > 0) {
    const visit = pending.pop() as Visit;
    const { value } = visit;
    seen += 1;
    if (seen > MAX_VALUES)
      return { code: 'too_big', path: [], message: `the input holds more than ${MAX_VALUES} values` };
    if (typeof value === 'string' && value.length > maxTextChars)
      return {
        code: 'too_big',
        path: pathOf(visit),
        message: `at most ${maxTextChars} characters are accepted here (got ${value.length})`,
      };
    if (typeof value !== 'object' || value === null) continue;
    const entries: [string | number, unknown][] = Array.isArray(value)
      ? value.map((item, index) => [index, item])
      : Object.entries(value);
    for (const [key, item] of entries) {
      if (typeof key === 'string' && key.length > maxTextChars)
        return { code: 'too_big', path: pathOf(visit), message: `a key is longer than ${maxTextChars} characters` };
      pending.push({ value: item, parent: visit, key });
    }
  }
  return null;
}

// A value waiting to be checked, linked to its parent so its path is only built for a refusal.
interface Visit {
  readonly value: unknown;
  readonly parent: Visit | null;
  readonly key: string | number | null;
}

// The JSON path of a visited value.
function pathOf(visit: Visit): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Visit | null = visit; at !== null && at.key !== null; at = at.parent) path.unshift(at.key);
  return path;
}
