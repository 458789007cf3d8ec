import { z } from 'zod';
import { defineTool, toolError } from '../../ports/define-tool.js';
import type { Tool } from '../../ports/tool.js';
import { goalStatusSchema } from '../contracts/goal-evaluation.js';
import type { GoalEvaluation } from '../core/evaluate.js';
import { GoalLoop } from '../goal-loop.js';
import type { GoalLoopToolsOptions } from './options.js';
import { asInputError, issueOutput, recordedStages, runDirInput, stagesInput } from './tool-inputs.js';

/** The input schema of the `evaluate_goal` tool. @public */
export const evaluateGoalInputSchema = z.strictObject({
  run_dir: runDirInput,
  stages: stagesInput
    .optional()
    .describe("The pipeline's stage ids in order (default: the host's, else those the run's loop-state.json records)."),
  skip_commands: z.boolean().optional().describe('Do not run command criteria (they are PENDING); default false.'),
});

const checkOutput = z.strictObject({
  id: z.string().describe('The criterion id, or stage:<id> / feedback:<check> for a built-in check.'),
  kind: z.string().describe('The criterion kind, or builtin.'),
  status: z.enum(['FAIL', 'PENDING']),
  detail: z.string(),
  observed: z.unknown().optional(),
  rerun_stages: z.array(z.string()).readonly(),
});

/** The output schema of the `evaluate_goal` tool. @public */
export const evaluateGoalOutputSchema = z.strictObject({
  run_dir: z.string(),
  goal_id: z.string(),
  status: z.union([goalStatusSchema, z.literal('ERROR')]),
  score: z.number(),
  min_score: z.number(),
  reason: z.string(),
  iteration: z.int().nullable().describe('The run-wide iteration evaluated; null when no loop ever ran here.'),
  failing_stages: z.array(z.string()).readonly(),
  recommended_rerun_stages: z.array(z.string()).readonly(),
  critical_count: z.int(),
  failing_criteria: z.array(checkOutput).readonly().describe('Every criterion and built-in check not PASS.'),
  deferred_judges: z
    .array(z.strictObject({ criterion_id: z.string(), reason: z.string() }))
    .readonly()
    .describe('Judge criteria not asked yet: a human is asked once nothing else would rerun.'),
  counts: z.strictObject({ checks: z.int(), passed: z.int(), failed: z.int(), pending: z.int() }),
  issues: z.array(issueOutput).readonly(),
});

/** The input of the `evaluate_goal` tool. @public */
export type EvaluateGoalInput = z.output<typeof evaluateGoalInputSchema>;

/** The output of the `evaluate_goal` tool: the evaluation's decision and what is not passing. @public */
export type EvaluateGoalOutput = z.output<typeof evaluateGoalOutputSchema>;

/** `evaluate_goal`: a dry run of the goal over a run directory (`GoalLoop.evaluate()`): writes nothing, takes no lock, runs no stage. @internal */
export function evaluateGoalTool(options: GoalLoopToolsOptions): Tool<EvaluateGoalInput, EvaluateGoalOutput> {
  return defineTool({
    name: 'evaluate_goal',
    title: "Evaluate a run's goal",
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    description:
      "Evaluates a run's goal now, as the goal loop would (a dry run: nothing is written and no stage runs). Returns " +
      'the decision (PASS, RETRY, ASK_USER, BLOCK, or ERROR for an unusable goal), the score, the stages to rerun ' +
      'and every criterion that is failing or pending, with why.',
    input: evaluateGoalInputSchema,
    output: evaluateGoalOutputSchema,
    run: async (call, context) => {
      const stages = call.stages ?? options.stages ?? (await recordedStages(options.fs, call.run_dir));
      if (stages.length === 0) {
        return toolError('invalid_input', 'The run records no pipeline stages', [
          { code: 'missing_stages', path: ['stages'], message: "name the pipeline's stages" },
        ]);
      }
      let loop: GoalLoop;
      try {
        loop = new GoalLoop({
          fs: options.fs,
          runDir: call.run_dir,
          stages,
          runner: { run: async () => ({ status: 'blocked', detail: 'evaluate_goal runs no stage' }) },
          ...(options.commands === undefined ? {} : { commands: options.commands }),
          // A run whose pipeline lacks the host's feedback stage evaluates as a pipeline without one.
          ...(options.feedbackStage === undefined || !stages.includes(options.feedbackStage)
            ? {}
            : { feedbackStage: options.feedbackStage }),
          // The call's signal cancels the command criteria it runs (a host that gave up on the call).
          ...(context.signal === undefined ? {} : { signal: context.signal }),
        });
      } catch (error) {
        return asInputError(error, { runDir: 'run_dir' });
      }
      const evaluation = await loop.evaluate({ skipCommands: call.skip_commands ?? false });
      return evaluationOutput(call.run_dir, evaluation);
    },
  });
}

// The evaluation in the tool's snake_case output shape, the passing checks counted rather than listed.
function evaluationOutput(runDir: string, evaluation: GoalEvaluation): EvaluateGoalOutput {
  const checks = [
    ...evaluation.criteria.map((criterion) => ({ ...criterion, kind: criterion.kind as string })),
    ...evaluation.builtins.map((check) => ({ ...check, kind: 'builtin' })),
  ];
  const failing = checks.flatMap((check) =>
    check.status === 'PASS'
      ? []
      : [
          {
            id: check.id,
            kind: check.kind,
            status: check.status,
            detail: check.detail,
            ...('observed' in check && check.observed !== undefined ? { observed: check.observed } : {}),
            rerun_stages: check.rerunStages,
          },
        ],
  );
  return {
    run_dir: runDir,
    goal_id: evaluation.goalId,
    status: evaluation.status,
    score: evaluation.score,
    min_score: evaluation.minScore,
    reason: evaluation.reason,
    iteration: evaluation.iteration,
    failing_stages: evaluation.failingStages,
    recommended_rerun_stages: evaluation.recommendedRerunStages,
    critical_count: evaluation.criticalCount,
    failing_criteria: failing,
    deferred_judges: evaluation.deferredJudges.map((judge) => ({
      criterion_id: judge.criterionId,
      reason: judge.reason,
    })),
    counts: {
      checks: checks.length,
      passed: checks.length - failing.length,
      failed: failing.filter((check) => check.status === 'FAIL').length,
      pending: failing.filter((check) => check.status === 'PENDING').length,
    },
    issues: evaluation.issues,
  };
}
