import { z } from 'zod';

/** One issue a critic raises: what is wrong, where, and what must change. @public */
export const criticIssueSchema = z.strictObject({
  issue: z.string().min(1),
  location: z.string().optional(),
  requiredChange: z.string().optional(),
});

/** One issue a critic raises. @public */
export type CriticIssue = z.infer<typeof criticIssueSchema>;

/** The four decisions a critic can make about a stage's output. @public */
export const criticVerdictSchema = z.enum(['accept', 'retry', 'route_back', 'escalate']);

/** One of the four critic decisions. @public */
export type CriticVerdict = z.infer<typeof criticVerdictSchema>;

const costSchema = z.number().finite().nonnegative();

/**
 * What a critic returns: its decision, the issues behind it, the earlier stage to route back to (for `route_back`), its
 * confidence and cost. @public
 */
export const criticDecisionSchema = z.strictObject({
  decision: criticVerdictSchema,
  issues: z.array(criticIssueSchema).default([]),
  routeTo: z.string().min(1).optional(),
  confidence: z.number().min(0).max(1).optional(),
  costUsd: costSchema.optional(),
});

/** A critic's decision as parsed. @public */
export type CriticDecision = z.output<typeof criticDecisionSchema>;

/** A critic's decision as a host may return it (`issues` optional). @public */
export type CriticDecisionInput = z.input<typeof criticDecisionSchema>;

/** What a generator returns: its output (any JSON value) and its cost. @public */
export const generatorResultSchema = z.strictObject({
  output: z.json(),
  costUsd: costSchema.optional(),
});

/** A generator's result. @public */
export type GeneratorResult = z.infer<typeof generatorResultSchema>;

/** Any JSON value (a stage's output, the execution's spec). @public */
export type JsonValue = z.infer<ReturnType<typeof z.json>>;
