// The parser of goal.json: the schema's issues and what a schema cannot check (unique criterion ids, rerun stages
// of the configured pipeline), every issue with its JSON path.
import { z } from 'zod';
import { type Issue, type ParseResult, refuseInvalidOptions } from '../../errors.js';
import { type Goal, goalSchema } from './goal.js';
import { goalSchemaIssues } from './goal-keys.js';

/** Options of `parseGoal`. @public */
export interface ParseGoalOptions {
  /** The configured pipeline's stage ids; `rerun_stages` entries must be among them. */
  readonly stages?: readonly string[];
}

/** The options of {@link parseGoal} and `parseVerdictFile`: a misspelt key would silently skip the stage check. @internal */
export const parseOptionShape = { stages: z.array(z.string()).optional() } satisfies Record<
  keyof ParseGoalOptions,
  z.ZodType
>;

/** Parses a goal definition's structure strictly. @internal */
export function parseGoalStructure(input: unknown, options: ParseGoalOptions = {}): ParseResult<Goal> {
  refuseInvalidOptions('parseGoal', parseOptionShape, options);
  const parsed = goalSchema.safeParse(input);
  // The semantic checks read the raw input, so they are reported even when the schema fails too.
  const semantic = semanticGoalIssues(input, options.stages);
  if (!parsed.success) return { success: false, issues: [...goalSchemaIssues(parsed.error, input), ...semantic] };
  return semantic.length === 0
    ? { success: true, data: parsed.data, issues: [] }
    : { success: false, issues: semantic };
}

// Checks what a schema cannot: unique criterion ids and known rerun stages (on the raw input; wrong types are the schema's issues).
function semanticGoalIssues(input: unknown, stages: readonly string[] | undefined): Issue[] {
  const issues: Issue[] = [];
  const criteria =
    typeof input === 'object' && input !== null && !Array.isArray(input)
      ? (input as { criteria?: unknown }).criteria
      : undefined;
  if (!Array.isArray(criteria)) return issues;
  const seen = new Map<string, number>();
  const known = stages === undefined ? undefined : new Set(stages);
  criteria.forEach((criterion: unknown, index) => {
    if (typeof criterion !== 'object' || criterion === null) return;
    const { id, rerun_stages: rerunStages } = criterion as { id?: unknown; rerun_stages?: unknown };
    if (typeof id === 'string' && id !== '') {
      const first = seen.get(id);
      if (first !== undefined) {
        issues.push({
          code: 'duplicate_id',
          path: ['criteria', index, 'id'],
          message: `duplicate criterion id "${id}" (first used at $.criteria[${first}].id)`,
        });
      } else seen.set(id, index);
    }
    if (known === undefined || !Array.isArray(rerunStages)) return;
    rerunStages.forEach((stage: unknown, stageIndex) => {
      if (typeof stage === 'string' && stage !== '' && !known.has(stage)) {
        issues.push({
          code: 'unknown_stage',
          path: ['criteria', index, 'rerun_stages', stageIndex],
          message: `"${stage}" is not a stage of the configured pipeline (${[...known].join(', ')})`,
        });
      }
    });
  });
  return issues;
}
