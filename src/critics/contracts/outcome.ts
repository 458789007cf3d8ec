import { z } from 'zod';
import { type Issue, issuesFromZod, type ParseResult } from '../../errors.js';

/** Where a defect was found: a stage id, or after the pipeline had deployed. @public */
export const POST_DEPLOYMENT = 'post_deployment';

const stageId = z.string().min(1);

/** What happened to one execution's work after its pipeline ended, as a host's bug tracker or a human records it. @public */
export const outcomeRecordSchema = z.discriminatedUnion('defect', [
  z.strictObject({
    executionId: z.string().min(1).describe('The execution (StagedPipeline executionId) the work came from.'),
    defect: z.literal(false).describe('The work needed no rework.'),
  }),
  z.strictObject({
    executionId: z.string().min(1).describe('The execution (StagedPipeline executionId) the work came from.'),
    defect: z.literal(true).describe('The work needed rework for a defect.'),
    origin: stageId
      .optional()
      .describe(
        'The stage whose output the defect was born in; without it every critic that passed the work is blamed.',
      ),
    foundAt: stageId.describe(`Where the defect was found: a stage id, or "${POST_DEPLOYMENT}".`),
    reworkCostUsd: z.number().finite().nonnegative().optional().describe('What fixing the defect cost, in USD.'),
  }),
]);

/** What happened to one execution's work after its pipeline ended. @public */
export type OutcomeRecord = z.infer<typeof outcomeRecordSchema>;

/** The outcomes file a host or a human writes (`schemas/critic-outcomes.schema.json`). @public */
export const criticOutcomesSchema = z.strictObject({
  $schema: z.string().optional(),
  schema_version: z.literal(1),
  outcomes: z.array(outcomeRecordSchema),
});

/** The outcomes file. @public */
export type CriticOutcomes = z.infer<typeof criticOutcomesSchema>;

/**
 * The issues of a list of outcome records at `base`: each field that does not fit, and an execution given twice (which
 * of two outcomes is true is not guessed). @internal
 */
export function outcomeListIssues(value: unknown, base: readonly (string | number)[]): Issue[] {
  const parsed = z.array(outcomeRecordSchema).safeParse(value);
  if (!parsed.success)
    return issuesFromZod(parsed.error).map((issue) => ({ ...issue, path: [...base, ...issue.path] }));
  const seen = new Set<string>();
  const issues: Issue[] = [];
  parsed.data.forEach((outcome, index) => {
    if (seen.has(outcome.executionId))
      issues.push({
        code: 'duplicate_id',
        path: [...base, index, 'executionId'],
        message: `execution ${outcome.executionId} has two outcomes`,
      });
    seen.add(outcome.executionId);
  });
  return issues;
}

/** Parses an outcomes file's JSON value, listing every issue with its path (an execution given twice is an issue too). @public */
export function parseCriticOutcomes(value: unknown): ParseResult<CriticOutcomes> {
  const parsed = criticOutcomesSchema.safeParse(value);
  if (!parsed.success) return { success: false, issues: issuesFromZod(parsed.error) };
  const issues = outcomeListIssues(parsed.data.outcomes, ['outcomes']);
  return issues.length === 0 ? { success: true, data: parsed.data, issues } : { success: false, issues };
}
