import { z } from 'zod';
import { isGoalLoopError, optionShapeOf, refuseInvalidOptions, refuseOptions } from '../errors.js';
import type { StageContext, StageOutcome, StageRunner } from '../index.js';
import type { JsonValue } from './contracts/decision.js';
import type { StagedResult } from './contracts/result.js';
import type { StagedPipeline } from './staged-pipeline.js';

/** Options of {@link createCriticsStageRunner}. @public */
export interface CriticsStageRunnerOptions {
  /**
   * The goal loop's stage this runner answers to; without it, it runs whichever stage the loop passes (give it, with
   * a `fallback`, when the loop has other stages).
   */
  readonly stageId?: string;
  /** The execution's spec: a JSON value, or a function of the stage run (e.g. reading the run directory). */
  readonly spec: JsonValue | ((context: StageContext) => JsonValue | Promise<JsonValue>);
  /** The execution id of a stage run (default `<stage>-<iteration>`: one execution per loop iteration, resumed after a crash). */
  readonly executionId?: (context: StageContext) => string;
  /** Another runner for every other stage (needs `stageId`; without it, other stages fail with a detail). */
  readonly fallback?: StageRunner;
}

const fn = (name: string) =>
  z.custom((value) => typeof value === 'function', { message: `${name} must be a function of the stage context` });
// Every option has an entry (checked against CriticsStageRunnerOptions), so a key outside it is a misspelling.
const optionShape = optionShapeOf<CriticsStageRunnerOptions>()({
  stageId: z.string().min(1).optional(),
  spec: z.union([fn('spec'), z.json()], { error: 'spec must be a JSON value or a function of the stage context' }),
  executionId: fn('executionId').optional(),
  fallback: z
    .custom((value) => typeof (value as { run?: unknown } | null)?.run === 'function', {
      message: 'fallback must be a stage runner (with run)',
    })
    .optional(),
});

// One sentence on an execution's gaps.
const gapsSentence = (result: StagedResult): string =>
  result.gaps
    .map((gap) => `${gap.stage}: ${gap.issues.map((issue) => issue.issue).join('; ') || 'open issues'}`)
    .join(' | ');

/** How a staged execution's result reads as a goal loop stage outcome. Pure. @internal */
export function outcomeOf(result: StagedResult): StageOutcome {
  const costUsd = result.spentUsd;
  if (result.status === 'escalated')
    return {
      status: 'needs_context',
      costUsd,
      detail: `execution ${result.executionId} escalated (${result.escalation}): ${result.reason}`,
    };
  const detail =
    result.gaps.length === 0
      ? `execution ${result.executionId} completed: ${result.reason}`
      : `execution ${result.executionId} completed with gaps — ${gapsSentence(result)}`;
  return { status: 'passed', costUsd, detail };
}

/**
 * A whole {@link StagedPipeline} as one stage of a `GoalLoop`: the stage runs
 * (or resumes) an execution; `completed` is `passed` (the accepted gaps in
 * the detail), `escalated` is `needs_context` (the reason in the detail), and
 * the execution's spend is the stage's cost. A fault (a held execution, an
 * I/O error) is `failed` with the reason, never a throw; the loop's abort
 * signal aborts the execution (resumable). An unknown option key or a wrong
 * value throws `INVALID_OPTIONS` naming its path when the runner is made.
 *
 * @example
 * ```ts
 * const runner = createCriticsStageRunner(pipeline, { stageId: '07-code', spec: { feature: 'login' }, fallback });
 * const loop = new GoalLoop({ fs, runDir, stages: ['02-requirements', '07-code'], runner });
 * ```
 * @public
 */
export function createCriticsStageRunner(pipeline: StagedPipeline, options: CriticsStageRunnerOptions): StageRunner {
  refuseInvalidOptions('createCriticsStageRunner', optionShape, options);
  if (options.fallback !== undefined && options.stageId === undefined)
    refuseOptions('createCriticsStageRunner', [
      {
        code: 'custom',
        path: ['fallback'],
        message: 'fallback runs the stages other than stageId, so it needs stageId',
      },
    ]);
  const { spec } = options;
  return {
    async run(stage: string, context: StageContext): Promise<StageOutcome> {
      if (options.stageId !== undefined && stage !== options.stageId) {
        if (options.fallback !== undefined) return options.fallback.run(stage, context);
        return { status: 'failed', detail: `the critics stage runner only runs ${options.stageId}, not ${stage}` };
      }
      const executionId = options.executionId?.(context) ?? `${stage}-${context.iteration}`;
      try {
        const value = typeof spec === 'function' ? await spec(context) : spec;
        return outcomeOf(await pipeline.run({ executionId, spec: value, signal: context.signal }));
      } catch (error) {
        if (context.signal.aborted) throw error;
        const reason = isGoalLoopError(error)
          ? `${error.code}: ${error.message}`
          : error instanceof Error
            ? error.message
            : String(error);
        return { status: 'failed', detail: `execution ${executionId} could not run (${reason})` };
      }
    },
  };
}
