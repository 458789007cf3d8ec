import { isGoalLoopError } from '../errors.js';
import type { StageContext, StageOutcome, StageRunner } from '../index.js';
import { FEEDBACK_STAGE } from '../pipeline/stage-presets.js';
import type { Clock } from '../ports/clock.js';
import { reviewFailed } from './core/task-contracts.js';
import { runConsistencyReview } from './run-review.js';

/** Options of {@link createReviewStageRunner}. @public */
export interface ReviewStageRunnerOptions {
  /** The stage id this runner answers to (default `11-feedback-loop`). */
  readonly stageId?: string;
  /** Another runner for every other stage (without it, other stages fail with a detail). */
  readonly fallback?: StageRunner;
  /** The clock stamping the report (default: `systemClock`). */
  readonly clock?: Pick<Clock, 'now'>;
  /** Pipeline stage ids, in order: goal.json's rerun_stages are checked against them (unchecked when absent), and reruns are ordered by them (default: the SDLC stages). */
  readonly stages?: readonly string[];
  /**
   * When the review stage reports `failed`: on a CRITICAL issue or a BLOCKED
   * review (`'critical'`, the default), so a loop reruns it with the stages
   * that fix the issues; or `'never'` (the loop then relies on feedback.json alone).
   */
  readonly failOn?: 'critical' | 'never';
}

/**
 * A ready {@link StageRunner} for the consistency review stage
 * (`11-feedback-loop`): it runs {@link runConsistencyReview} on the loop's
 * filesystem and run directory, stamped with the iteration the loop runs it
 * in (`context.iteration`, never ahead of the latest `loop_iteration_started`),
 * and reports `passed` (no CRITICAL issue) or `failed` (with a one-sentence
 * detail and the written artifacts). Other stage ids go to `fallback`. A
 * filesystem fault is reported as `failed`, not thrown.
 *
 * @example
 * ```ts
 * const runner = createReviewStageRunner({ fallback: myAgentRunner });
 * const loop = new GoalLoop({ fs, runDir, stages: ['07-code', '08-testing', '11-feedback-loop'], runner });
 * ```
 * @public
 */
export function createReviewStageRunner(options: ReviewStageRunnerOptions = {}): StageRunner {
  const stageId = options.stageId ?? FEEDBACK_STAGE;
  return {
    async run(stage: string, context: StageContext): Promise<StageOutcome> {
      if (stage !== stageId) {
        if (options.fallback !== undefined) return options.fallback.run(stage, context);
        return { status: 'failed', detail: `the review stage runner only runs ${stageId}, not ${stage}` };
      }
      if (context.signal.aborted) return { status: 'failed', detail: 'aborted before the review started' };
      try {
        const { report, written } = await runConsistencyReview({
          fs: context.fs,
          runDir: context.runDir,
          iteration: context.iteration,
          ...(options.clock === undefined ? {} : { clock: options.clock }),
          ...(options.stages === undefined ? {} : { stages: options.stages }),
        });
        const { summary } = report;
        const detail = `consistency score ${summary.overall_consistency_score} (${summary.pipeline_health}): ${summary.critical_count} CRITICAL, ${summary.warning_count} WARNING, ${summary.info_count} INFO${report.pipeline_status === 'BLOCKED' ? '; most core contracts are missing' : ''}`;
        const failed = (options.failOn ?? 'critical') === 'critical' && reviewFailed(report);
        return { status: failed ? 'failed' : 'passed', detail, artifacts: written };
      } catch (error) {
        const reason = isGoalLoopError(error)
          ? `${error.code}: ${error.message}`
          : error instanceof Error
            ? error.message
            : String(error);
        return { status: 'failed', detail: `the consistency review could not complete (${reason})` };
      }
    },
  };
}
