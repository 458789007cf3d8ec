import { z } from 'zod';
import { defineTool, toolError } from '../../ports/define-tool.js';
import type { Tool } from '../../ports/tool.js';
import { writeVerdict } from '../verdict-writer.js';
import type { GoalLoopToolsOptions, VerdictSource } from './options.js';
import { asInputError, recordedStages, runDirInput } from './tool-inputs.js';

const SOURCES = ['human', 'agent'] as const satisfies readonly VerdictSource[];

/** The input schema of the `submit_verdict` tool. @public */
export const submitVerdictInputSchema = z
  .strictObject({
    run_dir: runDirInput,
    criterion_id: z.string().min(1).describe('The id of a judge criterion of the goal.'),
    verdict: z
      .enum(['PASS', 'FAIL'])
      .describe('PASS closes the judge criterion; FAIL reruns its stages (or blocks, with recommendation block).'),
    source: z.enum(SOURCES).describe('Who judged: a human, or an agent (an agent must give its reasoning).'),
    judge: z
      .string()
      .min(1)
      .regex(/^[^:]/, 'judge must not start with ":"')
      .optional()
      .describe('Who exactly (e.g. architect, reviewer-model); recorded as <source>:<judge>.'),
    reasoning: z.string().min(1).optional().describe('Why, in a sentence or two; required when source is agent.'),
    score: z.number().optional().describe("An optional score on the judge's own scale, recorded as given."),
    recommendation: z
      .enum(['retry', 'block'])
      .optional()
      .describe('On FAIL: block stops the loop blocked; retry (the default) reruns the criterion stages.'),
    recommended_rerun_stages: z
      .array(z.string().min(1))
      .readonly()
      .optional()
      .describe("On FAIL: the stages to rerun instead of the criterion's own."),
  })
  .refine((call) => call.source !== 'agent' || call.reasoning !== undefined, {
    message: "an agent's verdict must give its reasoning",
    path: ['reasoning'],
    // Checked beside the other fields' issues too (all of them are reported, not the first), whenever it can be.
    when: (payload) => typeof payload.value === 'object' && payload.value !== null,
  });

/** The output schema of the `submit_verdict` tool. @public */
export const submitVerdictOutputSchema = z.strictObject({
  run_dir: z.string(),
  criterion_id: z.string(),
  verdict: z.enum(['PASS', 'FAIL']),
  source: z.enum(SOURCES),
  judge: z.string(),
  iteration: z
    .int()
    .describe(
      "The iteration that consumes the verdict: the running one, else the next. It stays fresh later while none of the criterion's rerun_stages reruns.",
    ),
  recommendation: z.enum(['retry', 'block']).optional(),
  recommended_rerun_stages: z.array(z.string()).readonly().optional(),
});

/** The input of the `submit_verdict` tool. @public */
export type SubmitVerdictInput = z.output<typeof submitVerdictInputSchema>;

/** The output of the `submit_verdict` tool: the verdict as written, with its iteration stamp. @public */
export type SubmitVerdictOutput = z.output<typeof submitVerdictOutputSchema>;

// The library's option names, as the input fields they come from.
const FIELDS = {
  runDir: 'run_dir',
  criterionId: 'criterion_id',
  recommendedRerunStages: 'recommended_rerun_stages',
} as const;

/**
 * `submit_verdict`: a judge verdict into the run's goal-verdict.json through `writeVerdict` (the explicit pool of the
 * verdict protocol), stamped with the iteration that consumes it and signed with its source. @internal
 */
export function submitVerdictTool(options: GoalLoopToolsOptions): Tool<SubmitVerdictInput, SubmitVerdictOutput> {
  const allowed: readonly VerdictSource[] = options.verdictSources ?? SOURCES;
  return defineTool({
    name: 'submit_verdict',
    title: 'Submit a judge verdict',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    description:
      "Records a PASS or FAIL verdict for one of the goal's judge criteria (in the run's goal-verdict.json), " +
      'stamped with the loop iteration that will consume it and signed human:<judge> or agent:<judge>. The next ' +
      'loop iteration (or evaluate_goal) uses it; a FAIL with recommendation block stops the loop.',
    input: submitVerdictInputSchema,
    output: submitVerdictOutputSchema,
    run: async (call) => {
      if (!allowed.includes(call.source)) {
        return toolError('invalid_input', `This host does not accept verdicts from source ${call.source}`, [
          { code: 'source_not_allowed', path: ['source'], message: `accepted: ${allowed.join(', ')}` },
        ]);
      }
      const judge = call.judge === undefined ? call.source : `${call.source}:${call.judge}`;
      try {
        // The pipeline's stages check the verdict's rerun stages: the tools' own, else the ones the run records.
        const stages = options.stages ?? (await recordedStages(options.fs, call.run_dir));
        const written = await writeVerdict({
          fs: options.fs,
          runDir: call.run_dir,
          criterionId: call.criterion_id,
          verdict: call.verdict,
          judge,
          ...(call.reasoning === undefined ? {} : { reasoning: call.reasoning }),
          ...(call.score === undefined ? {} : { score: call.score }),
          ...(call.recommendation === undefined ? {} : { recommendation: call.recommendation }),
          ...(call.recommended_rerun_stages === undefined
            ? {}
            : { recommendedRerunStages: call.recommended_rerun_stages }),
          ...(stages.length === 0 ? {} : { stages }),
        });
        return {
          run_dir: call.run_dir,
          criterion_id: call.criterion_id,
          verdict: written.verdict,
          source: call.source,
          judge,
          iteration: written.iteration ?? 0,
          ...(written.recommendation === undefined ? {} : { recommendation: written.recommendation }),
          ...(written.recommended_rerun_stages === undefined
            ? {}
            : { recommended_rerun_stages: written.recommended_rerun_stages }),
        };
      } catch (error) {
        return asInputError(error, FIELDS);
      }
    },
  });
}
