// What the review knows when it authors `goal_evaluation`: the goal, the loop iteration, the file checks and the report.
import type { Issue } from '../../errors.js';
import type { Goal } from '../../index.js';
import type { FeedbackReportBody } from '../contracts/feedback-report.js';

/**
 * What reading the run found at one `file_exists` criterion's path (resolved against the run dir or the project root,
 * as the criterion says): it exists, or it does not (missing, or refused by containment), or it could not be checked at
 * all (`error`: why, e.g. a path too long for the OS). @public
 */
export interface FileCheck {
  /** True when something exists at the path, inside the project. */
  readonly exists: boolean;
  /** Why the path could not be checked at all (then `exists` is false). */
  readonly error?: string;
}

/** What the review knows when it authors `goal_evaluation`. @public */
export interface GoalEvaluationInput {
  /** The run's goal, or null without goal.json. */
  readonly goal: Goal | null;
  /** Issues of a goal.json that exists but does not parse (then `goal` is null). */
  readonly goalIssues: readonly Issue[];
  /** The iteration of the latest `loop_iteration_started`, or null outside a loop. */
  readonly iteration: number | null;
  /** The check of each `file_exists` criterion's path, by criterion id: the only evidence such a result may cite (unchecked: unknown). */
  readonly fileChecks: ReadonlyMap<string, FileCheck>;
  /** The run-relative path of feedback.json: the evidence of results computed from this report. */
  readonly feedbackPath: string;
  /** The report without its goal_evaluation: the source of `feedback` metrics. */
  readonly report: FeedbackReportBody;
  /** Core stages to rerun because the review is BLOCKED (majority missing). */
  readonly blockedStages: readonly string[];
  /** Pipeline order of stage ids, for sorting rerun stages. */
  readonly stages: readonly string[];
  readonly feedbackStage: string;
}
