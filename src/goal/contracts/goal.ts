import { z } from 'zod';

/** The longest timeout a command criterion may ask for, in milliseconds. @public */
export const MAX_COMMAND_TIMEOUT_MS = 600_000;

/** The comparison operators a `metric_threshold` criterion accepts. @public */
export const metricOperatorSchema = z.enum(['>=', '>', '<=', '<', '==', '!=']);

/** A comparison operator of a `metric_threshold` criterion. @public */
export type MetricOperator = z.infer<typeof metricOperatorSchema>;

/** The maintenance categories of Stephens ch. 11. @public */
export const maintenanceCategorySchema = z.enum(['perfective', 'adaptive', 'corrective', 'preventive']);

/** A maintenance category. @public */
export type MaintenanceCategory = z.infer<typeof maintenanceCategorySchema>;

const criterionBase = {
  id: z.string().min(1, 'criterion id must be a non-empty string'),
  description: z.string().optional(),
  maintenance_category: maintenanceCategorySchema.optional(),
  rerun_stages: z.array(z.string().min(1)).default([]),
};

const pathFields = {
  path: z.string().min(1, 'path must be a non-empty string'),
  run_relative: z.boolean().default(false),
};

/** `file_exists`: the path exists (file or directory) inside the project. @public */
export const fileExistsCriterionSchema = z.strictObject({
  ...criterionBase,
  kind: z.literal('file_exists'),
  ...pathFields,
});

/** `command`: a shell command exits with the expected code. @public */
export const commandCriterionSchema = z.strictObject({
  ...criterionBase,
  kind: z.literal('command'),
  command: z.string().min(1, 'command must be a non-empty string'),
  expect_exit_code: z.int().default(0),
  timeout_ms: z.int().min(1).max(MAX_COMMAND_TIMEOUT_MS).default(120_000),
});

/** Where a `metric_threshold` criterion reads its metric. @public */
export const metricSourceSchema = z.union(
  [z.literal('feedback'), z.literal('loop_state'), z.strictObject({ file: z.string().min(1) })],
  {
    error: (issue) =>
      issue.input === 'pipeline_state'
        ? '"pipeline_state" is rstack-agents\' pipeline rollup (stage counts, tasks, approvals), which this library does not build; write "loop_state" to read this library\'s loop-state.json (e.g. "iteration", "spent_usd"), or { "file": "pipeline-state.json" } to read the rollup rstack-agents saved in the run dir'
        : 'expected "feedback", "loop_state" or { "file": "<path in the run dir>" }',
  },
);

/** `metric_threshold`: a number at a dot path compares to a value. @public */
export const metricThresholdCriterionSchema = z.strictObject({
  ...criterionBase,
  kind: z.literal('metric_threshold'),
  source: metricSourceSchema,
  metric: z.string().min(1, 'metric must be a non-empty dot path'),
  operator: metricOperatorSchema,
  value: z.number(),
});

/** `judge`: closed by a verdict from a host, a human or the feedback stage. @public */
export const judgeCriterionSchema = z.strictObject({
  ...criterionBase,
  kind: z.literal('judge'),
  question: z.string().min(1),
});

/** `json_schema`: a JSON file validates against a JSON Schema. @public */
export const jsonSchemaCriterionSchema = z
  .strictObject({
    ...criterionBase,
    kind: z.literal('json_schema'),
    ...pathFields,
    schema: z.union([z.record(z.string(), z.unknown()), z.boolean()]).optional(),
    schema_path: z.string().min(1).optional(),
  })
  .superRefine((value, ctx) => {
    if ((value.schema === undefined) === (value.schema_path === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['schema'],
        message: 'give exactly one of "schema" (inline) or "schema_path"',
      });
    }
  });

/** Any criterion of a goal, discriminated by `kind`. @public */
export const criterionSchema = z.discriminatedUnion('kind', [
  fileExistsCriterionSchema,
  commandCriterionSchema,
  metricThresholdCriterionSchema,
  judgeCriterionSchema,
  jsonSchemaCriterionSchema,
]);

/** The schema of `goal.json` (schema_version 1). @public */
export const goalSchema = z.strictObject({
  $schema: z.string().optional(),
  schema_version: z.literal(1),
  goal_id: z.string().min(1).default('pipeline-complete'),
  description: z.string().optional(),
  min_score: z.number().min(0).max(100).default(100),
  criteria: z.array(criterionSchema).default([]),
});

/** A parsed goal, defaults applied. @public */
export type Goal = z.output<typeof goalSchema>;
/** A goal as written in `goal.json`, before defaults. @public */
export type GoalInput = z.input<typeof goalSchema>;
/** A parsed criterion. @public */
export type Criterion = z.output<typeof criterionSchema>;
/** The kinds of criterion. @public */
export type CriterionKind = Criterion['kind'];
/** A parsed `file_exists` criterion. @public */
export type FileExistsCriterion = z.output<typeof fileExistsCriterionSchema>;
/** A parsed `command` criterion. @public */
export type CommandCriterion = z.output<typeof commandCriterionSchema>;
/** A parsed `metric_threshold` criterion. @public */
export type MetricThresholdCriterion = z.output<typeof metricThresholdCriterionSchema>;
/** A parsed `judge` criterion. @public */
export type JudgeCriterion = z.output<typeof judgeCriterionSchema>;
/** A parsed `json_schema` criterion. @public */
export type JsonSchemaCriterion = z.output<typeof jsonSchemaCriterionSchema>;
/** Where a metric is read. @public */
export type MetricSource = z.output<typeof metricSourceSchema>;

/** The goal that applies when a run has no goal.json: no criteria, built-in checks only. @public */
export const DEFAULT_GOAL: Goal = Object.freeze({
  schema_version: 1,
  goal_id: 'pipeline-complete',
  min_score: 100,
  criteria: [],
}) as Goal;
