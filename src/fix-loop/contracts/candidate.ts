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
 * automatically, and what the applier needs (a unified diff in `patch`, or
 * any JSON in `data` for a host's own applier). Unknown fields are refused.
 *
 * @public
 */
export const fixCandidateSchema = z.strictObject({
  description: z.string().min(1),
  confidence: z.number().min(0).max(1),
  mutation_type: mutationTypeSchema,
  patch: z.string().optional(),
  data: z.json().optional(),
});

/** One proposed fix. @public */
export type FixCandidate = z.infer<typeof fixCandidateSchema>;
