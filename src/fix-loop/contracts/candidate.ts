import { z } from 'zod';

/** How a fix is carried out: `auto` by the applier; `manual` by a human (the session escalates). @public */
export const mutationTypeSchema = z.enum(['auto', 'manual']);

/** How a fix is carried out. @public */
export type MutationType = z.infer<typeof mutationTypeSchema>;

/**
 * One proposed fix: its description (its identity: never applied twice), confidence, `mutationType`, and what the
 * applier needs (a unified diff in `patch`, or any JSON in `data`). @public
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

/** A {@link FixCandidate} as the session's files store it, in snake_case. @public */
export const fixCandidateRecordSchema = z.strictObject({
  description: z.string().min(1),
  confidence: z.number().min(0).max(1),
  mutation_type: mutationTypeSchema,
  patch: z.string().optional(),
  data: z.json().optional(),
});

/** A candidate as the session's files store it. @public */
export type FixCandidateRecord = z.infer<typeof fixCandidateRecordSchema>;

/** A candidate as the session's files store it. @internal */
export function candidateRecord(candidate: FixCandidate): FixCandidateRecord {
  const { mutationType, patch, data, ...rest } = candidate;
  return {
    ...rest,
    mutation_type: mutationType,
    ...(patch === undefined ? {} : { patch }),
    ...(data === undefined ? {} : { data }),
  };
}

/** A stored candidate as the API passes it. @internal */
export function candidateFromRecord(record: FixCandidateRecord): FixCandidate {
  const { mutation_type: mutationType, patch, data, ...rest } = record;
  return {
    ...rest,
    mutationType,
    ...(patch === undefined ? {} : { patch }),
    ...(data === undefined ? {} : { data }),
  };
}
