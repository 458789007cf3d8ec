// goal-loop/review: the consistency review (stage 11 as code): the pure review, its shell and its stage runner. It
// reaches the goal loop only through goal-loop's public entry; the stage contracts' schemas and feedback.json's are in
// goal-loop/contracts.

export type { ContractInput, ReviewContracts } from './review/core/contract-input.js';
export { presentContract } from './review/core/contract-input.js';
export type { FileCheck } from './review/core/goal-evaluation.js';
export { renderRemediationPlan } from './review/core/remediation-plan-markdown.js';
export type { ReviewOptions } from './review/core/review-pipeline.js';
export { reviewPipeline } from './review/core/review-pipeline.js';
export type { BuilderContract, ValidationCheck, ValidationContract } from './review/core/task-contracts.js';
export type { ReadRunOptions, RunInputs } from './review/read-run.js';
export { readRunInputs } from './review/read-run.js';
export type { ReviewStageRunnerOptions } from './review/review-stage-runner.js';
export { createReviewStageRunner } from './review/review-stage-runner.js';
export type { ConsistencyReviewOptions, ConsistencyReviewResult } from './review/run-review.js';
export { runConsistencyReview } from './review/run-review.js';
