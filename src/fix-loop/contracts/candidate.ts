import { z } from 'zod';

/**
 * How a fix is carried out: `auto` candidates are applied by the applier;
 * `manual` ones need a human and are never applied (the session escalates).
 *
 * @public
 */
export const mutationTypeSchema = z.enum(['auto', 'manual']);

/** How a fix is carried out. @public */
export type MutationType = z.infer<typeof mutationTypeSchema>;

/**
 * One fix a host's candidate source proposes: what it does (its identity in
 * the session: a candidate is never applied twice, by the hash of its
 * description), how sure the source is, whether it can be applied
 * automatically (`mutationType`), and what the applier needs (a unified diff
 * in `patch`, or any JSON in `data` for a host's own applier). Unknown fields
 * are refused, each issue with its JSON path (`$[1].mutationType`).
 *
 * @public
 */
export const fixCandidateSchema = z.strictObject({
  description: z.string().min(1),
  confidence: z.number().min(0).max(1),
  mutationType: mutationTypeSchema,
  patch: z.string().optional(),
  data: z.json().optional(),
});

/** One proposed fix, as a host's candidate source returns it and an applier receives it. @public */
export type FixCandidate = z.infer<typeof fixCandidateSchema>;

/**
 * A candidate as the session's files store it (state.json's
 * `manual_candidates`, escalation.json's `top_remaining_candidates`): a
 * {@link FixCandidate} with its fields in snake_case (`mutation_type`), like
 * every on-disk record.
 *
 * @public
 */
export const fixCandidateRecordSchema = z.strictObject({
  description: z.string().min(1),
  confidence: z.number().min(0).max(1),
  mutation_type: mutationTypeSchema,
  patch: z.string().optional(),
  data: z.json().optional(),
});

/** A candidate as the session's files store it. @public */
export type FixCandidateRecord = z.infer<typeof fixCandidateRecordSchema>;

/** A candidate as the session's files store it (`mutation_type`): one of the two places the shapes meet. Pure. @internal */
export function candidateRecord(candidate: FixCandidate): FixCandidateRecord {
  const { mutationType, patch, data, ...rest } = candidate;
  return {
    ...rest,
    mutation_type: mutationType,
    ...(patch === undefined ? {} : { patch }),
    ...(data === undefined ? {} : { data }),
  };
}

/** A stored candidate as the API passes it (`mutationType`): the other place the shapes meet. Pure. @internal */
export function candidateFromRecord(record: FixCandidateRecord): FixCandidate {
  const { mutation_type: mutationType, patch, data, ...rest } = record;
  return {
    ...rest,
    mutationType,
    ...(patch === undefined ? {} : { patch }),
    ...(data === undefined ? {} : { data }),
  };
}
