import { z } from 'zod';
import { issuesFromZod, type ParseResult } from '../../errors.js';
import { type FixCandidate, fixCandidateSchema } from '../contracts/candidate.js';

const candidateListSchema = z.array(fixCandidateSchema);

/**
 * Checks what a host's candidate source returned: an array of
 * {@link FixCandidate}s, each with a non-empty description, a confidence in
 * [0, 1], a mutation type of `auto` or `manual`, and no unknown field. Every
 * issue is listed with its JSON path (`$[1].confidence`); a value whose
 * reading throws (a throwing getter, nesting too deep to walk) is one
 * `unreadable` issue. Never throws. Pure.
 *
 * @public
 */
export function parseFixCandidates(value: unknown): ParseResult<FixCandidate[]> {
  let result: ReturnType<typeof candidateListSchema.safeParse>;
  try {
    result = candidateListSchema.safeParse(value);
  } catch (error) {
    const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return {
      success: false,
      issues: [{ code: 'unreadable', path: [], message: `The candidates cannot be read (${why})` }],
    };
  }
  if (!result.success) return { success: false, issues: issuesFromZod(result.error) };
  return { success: true, data: result.data, issues: [] };
}
