import { type Issue, refuseOptions } from '../../errors.js';
import type { Goal } from '../../index.js';
import { FEEDBACK_STAGE, SDLC_STAGES } from '../../pipeline/stage-presets.js';
import { analyseArchitecture } from '../analyses/architecture.js';
import { analyseAvailability, type ContractExpectation, isBlocked, isSkipped } from '../analyses/availability.js';
import { detectBugSwarms } from '../analyses/bug-swarm.js';
import { analyseCapacity } from '../analyses/capacity.js';
import { analyseDocumentation } from '../analyses/documentation.js';
import { analyseReferences } from '../analyses/references.js';
import { planRemediations } from '../analyses/remediation.js';
import { analyseSecurity } from '../analyses/security.js';
import { traceabilityFindings } from '../analyses/traceability.js';
import { buildTraceabilityMatrix } from '../analyses/traceability-matrix.js';
import { analyseVersions } from '../analyses/versions.js';
import type { FeedbackReport, FeedbackReportBody, TraceabilityRow } from '../contracts/feedback-report.js';
import { buildAnalysisScope, isAdoptedRun } from './analysis-scope.js';
import { scopeBaseline } from './baseline.js';
import type { ReviewContracts } from './contract-input.js';
import { REVIEW_OUTPUT_PATHS } from './contract-slots.js';
import type { Finding } from './finding.js';
import { capFindings, DEFAULT_MAX_ISSUES_PER_RULE } from './finding-cap.js';
import { authorGoalEvaluation, type FileCheck } from './goal-evaluation.js';
import { buildReviewModel, type ReviewModel } from './model.js';
import { summarizeIssues } from './score.js';

/** Options of {@link reviewPipeline}. @public */
export interface ReviewOptions {
  /** The report's `timestamp` (ISO 8601), from the caller's clock. */
  readonly timestamp: string;
  /** The run's parsed goal, or null/absent without goal.json. */
  readonly goal?: Goal | null;
  /** Issues of a goal.json that exists but is invalid. */
  readonly goalIssues?: readonly Issue[];
  /** The iteration of the latest `loop_iteration_started`, or null outside a loop. */
  readonly iteration?: number | null;
  /** The run's manifest.json content (`"mode": "adopt"` marks an adopted run; only then is `"source": "brownfield-adoption"` baseline). */
  readonly manifest?: unknown;
  /** The check of each `file_exists` criterion's path, by criterion id (evidence for their results; an unchecked criterion is `unknown`). */
  readonly fileChecks?: ReadonlyMap<string, FileCheck>;
  /** Stage ids in pipeline order (default: the 15 SDLC stages). */
  readonly stages?: readonly string[];
  /** The review's own stage id (default `11-feedback-loop`). */
  readonly feedbackStage?: string;
  /** `produced_by` of the report (default `goal-loop/consistency-review`). */
  readonly producedBy?: string;
  /** Issues of one rule that `issues[]` lists (default 1,000). */
  readonly maxIssuesPerRule?: number;
}

/**
 * Reviews one pipeline run: reads every stage contract into the normalized model, runs the eight analyses, scores the
 * run and authors the goal_evaluation. @public
 */
export function reviewPipeline(contracts: ReviewContracts, options: ReviewOptions): FeedbackReport {
  // The options are read once, into a shallow copy (a getter that throws is refused, not a crash midway).
  const read = shallowCopy(options);
  const issues = [
    ...(isRecord(contracts) ? [] : [notAnObject('contracts', 'the contract inputs by key')]),
    ...('failure' in read
      ? [{ code: 'unreadable', path: ['options'], message: `reading the options threw (${read.failure})` }]
      : isRecord(options)
        ? []
        : [notAnObject('options', 'the review options, with a timestamp')]),
  ];
  refuseOptions('reviewPipeline', issues);
  return reviewModel(buildReviewModel(contracts), (read as { copy: ReviewOptions }).copy);
}

// The own enumerable fields of `value`, read once, or the reason reading them threw.
function shallowCopy(value: unknown): { copy: unknown } | { failure: string } {
  try {
    return { copy: typeof value === 'object' && value !== null ? { ...value } : value };
  } catch (error) {
    return { failure: error instanceof Error ? `${error.name}: ${error.message}` : 'a value that is not an Error' };
  }
}

// True for an object that is not an array (false for one that cannot be asked, such as a revoked proxy).
function isRecord(value: unknown): boolean {
  try {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

// The issue of an argument that is not an object.
function notAnObject(argument: string, what: string): Issue {
  return { code: 'invalid_type', path: [argument], message: `expected an object: ${what}` };
}

// Every analysis's findings in report order, one analysis at a time, so each array dies once it is counted.
function* allFindings(
  model: ReviewModel,
  rows: readonly TraceabilityRow[],
  expectation: ContractExpectation,
): Generator<Finding> {
  yield* analyseAvailability(model, expectation);
  yield* traceabilityFindings(model, rows);
  yield* analyseArchitecture(model);
  yield* analyseCapacity(model);
  yield* analyseSecurity(model);
  yield* analyseDocumentation(model);
  yield* analyseVersions(model);
  yield* analyseReferences(model);
}

/** {@link reviewPipeline} on an already-built model (a caller that normalizes while reading need not hold the raw documents). Pure. @internal */
export function reviewModel(read: ReviewModel, options: ReviewOptions): FeedbackReport {
  const adopt = isAdoptedRun(options.manifest);
  const model = scopeBaseline(read, adopt);
  const stages = options.stages ?? SDLC_STAGES;
  const expectation: ContractExpectation = { adopt, pipeline: new Set(stages) };
  const feedbackStage = options.feedbackStage ?? FEEDBACK_STAGE;
  const matrix = buildTraceabilityMatrix(model);
  const max = Math.max(1, Math.floor(options.maxIssuesPerRule ?? DEFAULT_MAX_ISSUES_PER_RULE));
  const { kept, omitted } = capFindings(allFindings(model, matrix.requirements, expectation), max);
  const baselineSources = model.contracts.requirement_spec?.sources ?? [];
  const { issues, swarms } = detectBugSwarms(planRemediations(kept, baselineSources));
  const blocked = isBlocked(model, expectation);
  const withoutGoal: FeedbackReportBody = {
    contract_version: '1.1',
    produced_by: options.producedBy ?? 'goal-loop/consistency-review',
    timestamp: options.timestamp,
    pipeline_complete: !blocked,
    pipeline_status: blocked ? 'BLOCKED' : 'REVIEWED_AND_COMPLETE',
    analysis_scope: buildAnalysisScope(model, expectation),
    traceability_matrix: matrix,
    issues,
    ...(omitted.length === 0 ? {} : { omitted_issues: omitted }),
    bug_swarms: swarms,
    summary: summarizeIssues(issues, adopt, omitted),
    remediation_plan_path: REVIEW_OUTPUT_PATHS.remediationPlan,
    previous_agent: '10-summary',
  };
  const blockedStages = blocked
    ? model.statuses
        .filter((status) => status.kind === 'core' && status.state === 'missing' && !isSkipped(status, expectation))
        .map((status) => status.stage)
    : [];
  const goalEvaluation = authorGoalEvaluation({
    goal: options.goal ?? null,
    goalIssues: options.goalIssues ?? [],
    iteration: options.iteration ?? null,
    fileChecks: options.fileChecks ?? new Map(),
    feedbackPath: REVIEW_OUTPUT_PATHS.feedback,
    report: withoutGoal,
    blockedStages,
    stages,
    feedbackStage,
  });
  return { ...withoutGoal, goal_evaluation: goalEvaluation };
}
