import { z } from 'zod';
import { type Issue, issuesFromZod, type ParseResult } from '../../errors.js';
import { pathBeyondDepth } from '../../kit/json-depth.js';
import { pushAll } from '../../kit/record.js';
import { type FixCandidate, fixCandidateSchema } from '../contracts/candidate.js';

// Deeper than this a candidate is refused before its schema walks it: the schema's recursion (and the session
// record's, which keeps manual candidates) would overflow the call stack a few thousand levels down, losing the
// whole proposal instead of the one candidate.
const MAX_CANDIDATE_DEPTH = 256;

// Why reading a value threw.
const why = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

const unreadable = (path: readonly (string | number)[], what: string, error: unknown): Issue => ({
  code: 'unreadable',
  path,
  message: `${what} cannot be read (${why(error)})`,
});

/**
 * Checks one candidate of a host's proposal, the `index`-th of its list: a
 * {@link FixCandidate} nested at most 256 levels deep (checked first, without
 * recursion, so a candidate nested 10,000 deep or holding a cycle is one
 * `too_deep` issue at `$[index].<field>`), then its schema. A value whose
 * reading throws is one `unreadable` issue. Never throws. Pure.
 *
 * @internal
 */
export function checkFixCandidate(item: unknown, index: number): ParseResult<FixCandidate> {
  try {
    const deep = pathBeyondDepth(item, MAX_CANDIDATE_DEPTH);
    if (deep !== null) {
      const message = `The candidate is nested deeper than ${MAX_CANDIDATE_DEPTH} levels (or holds a cycle)`;
      return { success: false, issues: [{ code: 'too_deep', path: [index, ...deep.slice(0, 1)], message }] };
    }
    const parsed = fixCandidateSchema.safeParse(item);
    if (parsed.success) return { success: true, data: parsed.data, issues: [] };
    return { success: false, issues: issuesFromZod(parsed.error, [index]) };
  } catch (error) {
    return { success: false, issues: [unreadable([index], 'The candidate', error)] };
  }
}

/**
 * Checks what a host's candidate source returned: an array of
 * {@link FixCandidate}s, each with a non-empty description, a confidence in
 * [0, 1], a mutation type of `auto` or `manual`, no unknown field, and
 * nested at most 256 levels deep. Every issue is listed with its JSON path
 * (`$[1].confidence`, `$[2].data` for a candidate nested too deep, even
 * 10,000 levels); a value whose reading throws (a throwing getter, a revoked
 * proxy) is an `unreadable` issue. Never throws. Pure.
 *
 * @public
 */
export function parseFixCandidates(value: unknown): ParseResult<FixCandidate[]> {
  let items: unknown[];
  try {
    if (!Array.isArray(value)) {
      const shape = z.array(z.unknown()).safeParse(value);
      return { success: false, issues: shape.success ? [] : issuesFromZod(shape.error) };
    }
    items = Array.from(value as unknown[]);
  } catch (error) {
    return { success: false, issues: [unreadable([], 'The candidates', error)] };
  }
  const candidates: FixCandidate[] = [];
  const issues: Issue[] = [];
  items.forEach((item, index) => {
    const checked = checkFixCandidate(item, index);
    if (checked.success) candidates.push(checked.data);
    else pushAll(issues, checked.issues);
  });
  if (issues.length > 0) return { success: false, issues };
  return { success: true, data: candidates, issues: [] };
}
