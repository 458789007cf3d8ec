import { z } from 'zod';
import { isGoalLoopError, optionShapeOf, portOption, refuseInvalidOptions } from '../errors.js';
import type { StageContext, StageOutcome, StageRunner } from '../index.js';
import { FEEDBACK_STAGE } from '../pipeline/stage-presets.js';
import type { Clock } from '../ports/clock.js';
import type { FeedbackReport } from './contracts/feedback-report.js';
import { reviewFailed } from './core/task-contracts.js';
import { consistencyReviewOptionShape } from './review-options.js';
import { runConsistencyReview } from './run-review.js';

/** Options of {@link createReviewStageRunner}. @public */
export interface ReviewStageRunnerOptions {
  /** The stage id this runner answers to (default `11-feedback-loop`). */
  readonly stageId?: string;
  /** Another runner for every other stage (without it, other stages fail with a detail). */
  readonly fallback?: StageRunner;
  /** The clock stamping the report (default: `systemClock`). */
  readonly clock?: Pick<Clock, 'now'>;
  /** Pipeline stage ids, in order. */
  readonly stages?: readonly string[];
  /**
   * When the review stage reports `failed`: on a CRITICAL issue or a BLOCKED review (`'critical'`, the default), so a
   * loop reruns it with the stages that fix the issues.
   */
  readonly failOn?: 'critical' | 'never';
}

// Every option has an entry (checked against ReviewStageRunnerOptions), so a key outside it is a misspelling.
const optionShape = optionShapeOf<ReviewStageRunnerOptions>()({
  stageId: z.string().min(1).optional(),
  fallback: portOption(['run'], 'fallback must be a stage runner (with run)').optional(),
  clock: consistencyReviewOptionShape.clock,
  stages: consistencyReviewOptionShape.stages,
  failOn: z.enum(['critical', 'never']).optional(),
});

// The first CRITICAL issues' titles, for the detail: `US-004 has no test case; FR-002 has no user story and 3 more`.
function firstCriticals(report: FeedbackReport): string {
  const titles = report.issues
    .filter((issue) => issue.severity === 'CRITICAL')
    .slice(0, FIRST_TITLES)
    .map((issue) => issue.title);
  const more = report.summary.critical_count - titles.length;
  return `${titles.join('; ')}${more > 0 ? ` and ${more} more` : ''}`;
}

const FIRST_TITLES = 2;

// The review stage's one-sentence detail: why it failed first (the CRITICAL findings to fix, or the missing
// contracts of a BLOCKED review), then the score out of 100 and the other counts.
function reviewDetail(report: FeedbackReport): string {
  const { summary } = report;
  const critical = summary.critical_count;
  const score = `consistency score ${summary.overall_consistency_score}/100`;
  const others = [
    ...(summary.warning_count > 0 ? [`${summary.warning_count} WARNING`] : []),
    ...(summary.info_count > 0 ? [`${summary.info_count} INFO`] : []),
  ];
  const tail = `${score}${others.length === 0 ? '' : `; also ${others.join(', ')}`}`;
  const blocked =
    report.pipeline_status === 'BLOCKED'
      ? `blocked: most core contracts are missing (${report.analysis_scope.contracts_missing.length} missing)`
      : null;
  if (critical === 0) return blocked === null ? `no CRITICAL findings — ${tail}` : `${blocked} — ${tail}`;
  const findings = `${critical} CRITICAL finding${critical === 1 ? '' : 's'} to fix (${firstCriticals(report)})`;
  return `${blocked === null ? findings : `${blocked}; ${findings}`} — ${tail}`;
}

/**
 * A ready `StageRunner` for the consistency review stage (`11-feedback-loop`): it runs {@link
 * runConsistencyReview} on the loop's filesystem and run directory, stamped with the iteration the loop runs it in
 * (`context.iteration`, never ahead of the latest `loop_iteration_started`), and reports `passed` (no CRITICAL issue)
 * or `failed`, with the written artifacts and a one-sentence detail that says why first (for example "1 CRITICAL
 * finding to fix (US-004 has no test case) — consistency score 90/100", or "no CRITICAL findings — consistency score
 * 100/100"). @public
 */
export function createReviewStageRunner(options: ReviewStageRunnerOptions = {}): StageRunner {
  refuseInvalidOptions('createReviewStageRunner', optionShape, options);
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
        const failed = (options.failOn ?? 'critical') === 'critical' && reviewFailed(report);
        return { status: failed ? 'failed' : 'passed', detail: reviewDetail(report), artifacts: written };
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
