import { GoalLoopError } from '../errors.js';
import type { Goal } from '../index.js';
import { joinPath } from '../kit/paths.js';
import { FEEDBACK_STAGE } from '../pipeline/stage-presets.js';
import type { Clock } from '../ports/clock.js';
import { systemClock } from '../ports/clock.js';
import type { FileSystem } from '../ports/file-system.js';
import { type RealpathCache, resolveContainedPath } from '../runtime/containment.js';
import type { FeedbackReport } from './contracts/feedback-report.js';
import { REVIEW_OUTPUT_PATHS } from './core/contract-slots.js';
import { renderRemediationPlan } from './core/remediation-plan-markdown.js';
import { reviewModel } from './core/review-pipeline.js';
import { buildBuilderContract, buildValidationContract } from './core/task-contracts.js';
import { readRunModel } from './read-run.js';
import { validateConsistencyReviewOptions } from './review-options.js';

/** Options of {@link runConsistencyReview}. @public */
export interface ConsistencyReviewOptions {
  /** The project's filesystem. */
  readonly fs: FileSystem;
  /** The run directory, relative to the filesystem root. */
  readonly runDir: string;
  /** Use this goal instead of the run's goal.json (`null`: review without a goal). */
  readonly goal?: Goal | null;
  /** Stamp with this iteration (`null`: outside a loop). */
  readonly iteration?: number | null;
  /** The report timestamp (ISO 8601); wins over `clock`. */
  readonly now?: string;
  /** The clock the timestamp comes from when `now` is absent (default: `systemClock`). */
  readonly clock?: Pick<Clock, 'now'>;
  /** Pipeline stage ids, in order. */
  readonly stages?: readonly string[];
  /** The task id of the builder/validation pair (default `11-feedback-loop`, suffixed `-i<iteration>` inside a loop). */
  readonly taskId?: string;
  /** At most this many contract files are read at once (default 8). */
  readonly concurrency?: number;
  /** Issues of one rule listed in `issues[]` (default 1,000); the rest are counted in `omitted_issues`. */
  readonly maxIssuesPerRule?: number;
}

/** What {@link runConsistencyReview} did: the report, the plan, and every file written. @public */
export interface ConsistencyReviewResult {
  readonly report: FeedbackReport;
  readonly remediationPlan: string;
  readonly taskId: string;
  /** Every file written, relative to the filesystem root, in write order (canonical feedback.json last). */
  readonly written: readonly string[];
}

// Traceability rows and issues past which feedback.json is written as compact JSON (one line) instead of indented.
const PRETTY_PRINT_LIMIT = 5000;

// True when the report is large enough that indentation would cost more than it helps a reader.
function isLarge(report: FeedbackReport): boolean {
  return report.traceability_matrix.requirements.length + report.issues.length > PRETTY_PRINT_LIMIT;
}

// Every output path is checked before anything is written: one outside the project, or a non-file, writes nothing.
async function refuseEscapingOutputs(fs: FileSystem, paths: readonly string[]): Promise<void> {
  const cache: RealpathCache = new Map();
  const refused: string[] = [];
  for (const path of paths) {
    const fact = await resolveContainedPath(fs, path, { cache });
    if (fact.state === 'refused') refused.push(fact.detail);
    else if (fact.state === 'present' && fact.type !== 'file')
      refused.push(
        `"${path}" is ${fact.type === 'directory' ? 'a directory' : 'not a regular file'}, where the review writes a file`,
      );
  }
  if (refused.length > 0)
    throw new GoalLoopError(
      'IO_ERROR',
      `the consistency review wrote nothing: ${refused.length === 1 ? 'an output path cannot be written' : `${refused.length} output paths cannot be written`} (${refused.join('; ')})`,
    );
}

// The timestamp of the report: the caller's, else the clock's (the shared system clock by default).
function timestampOf(options: ConsistencyReviewOptions): string {
  return options.now ?? new Date((options.clock ?? systemClock).now()).toISOString();
}

// Reads the run (normalizing each contract as it arrives) and reviews it; the model lives only in this frame.
async function reviewRun(
  options: ConsistencyReviewOptions,
): Promise<{ report: FeedbackReport; iteration: number | null }> {
  const inputs = await readRunModel(options.fs, options.runDir, {
    ...(options.goal === undefined ? {} : { goal: options.goal }),
    ...(options.iteration === undefined ? {} : { iteration: options.iteration }),
    ...(options.stages === undefined ? {} : { stages: options.stages }),
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
  });
  const report = reviewModel(inputs.model, {
    timestamp: timestampOf(options),
    goal: inputs.goal,
    goalIssues: inputs.goalIssues,
    iteration: inputs.iteration,
    manifest: inputs.manifest,
    fileChecks: inputs.fileChecks,
    ...(options.maxIssuesPerRule === undefined ? {} : { maxIssuesPerRule: options.maxIssuesPerRule }),
    ...(options.stages === undefined ? {} : { stages: options.stages }),
  });
  return { report, iteration: inputs.iteration };
}

/**
 * Runs the consistency review of one run directory (stage 11 as code) through the FileSystem port, calling the pure
 * {@link reviewPipeline}, and writes each output atomically, the canonical feedback.json last.
 *
 * @example
 * ```ts
 * import { runConsistencyReview } from 'goal-loop/review';
 * import { createNodeFileSystem } from 'goal-loop/node';
 *
 * const { report } = await runConsistencyReview({ fs: createNodeFileSystem(process.cwd()), runDir: '.rstack/runs/r-42' });
 * console.log(report.summary.overall_consistency_score, report.summary.pipeline_health);
 * ```
 *
 * @public
 */
export async function runConsistencyReview(options: ConsistencyReviewOptions): Promise<ConsistencyReviewResult> {
  validateConsistencyReviewOptions(options);
  const { fs, runDir } = options;
  const { report, iteration } = await reviewRun(options);
  const remediationPlan = renderRemediationPlan(report);
  const taskId = options.taskId ?? (iteration === null ? FEEDBACK_STAGE : `${FEEDBACK_STAGE}-i${iteration}`);
  const feedbackText = `${JSON.stringify(report, null, isLarge(report) ? undefined : 2)}\n`;
  const outputs = [
    REVIEW_OUTPUT_PATHS.legacyFeedback,
    REVIEW_OUTPUT_PATHS.legacyRemediationPlan,
    REVIEW_OUTPUT_PATHS.remediationPlan,
    REVIEW_OUTPUT_PATHS.feedback,
  ];
  const builderPath = `tasks/${taskId}/builder.json`;
  const validationPath = `tasks/${taskId}/validation.json`;
  const builder = buildBuilderContract(report, taskId, [...outputs, builderPath, validationPath], FEEDBACK_STAGE);
  const files: [string, string][] = [
    [builderPath, `${JSON.stringify(builder, null, 2)}\n`],
    [validationPath, `${JSON.stringify(buildValidationContract(report, taskId), null, 2)}\n`],
    [REVIEW_OUTPUT_PATHS.legacyFeedback, feedbackText],
    [REVIEW_OUTPUT_PATHS.legacyRemediationPlan, remediationPlan],
    [REVIEW_OUTPUT_PATHS.remediationPlan, remediationPlan],
    [REVIEW_OUTPUT_PATHS.feedback, feedbackText],
  ];
  // The canonical feedback.json last, once the others are written: a reader that finds it finds the rest of this review beside it.
  const written = files.map(([path]) => joinPath(runDir, path));
  await refuseEscapingOutputs(fs, written);
  const last = files.length - 1;
  await Promise.all(files.slice(0, last).map(([, text], index) => fs.writeText(written[index] ?? '', text)));
  await fs.writeText(written[last] ?? '', files[last]?.[1] ?? '');
  return { report, remediationPlan, taskId, written };
}
