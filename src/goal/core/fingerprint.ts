import { hashJson } from '../../kit/hash.js';
import type { GoalEvaluation } from './evaluate.js';
import type { StageStatus } from './facts.js';

/**
 * The progress fingerprint of an iteration: a stable hash over
 * the stage statuses, the evaluation's status, score, critical count and
 * rerun stages, each criterion's id, status AND observed value (a metric
 * moving 60 → 80 is progress even when it still fails) and each built-in
 * check's id and status. Details, durations, reasons and claims are left out,
 * so a retry that changes nothing but wording or timing has the same
 * fingerprint as the one before it, and the loop stops `no_progress`.
 * Key order of `stageStatuses` does not matter. Pure.
 *
 * @example
 * ```ts
 * const fingerprint = progressFingerprint(evaluation, { '07-code': 'passed', '08-testing': 'failed' });
 * if (fingerprint === previousFingerprint) stop('no_progress');
 * ```
 * @public
 */
export function progressFingerprint(
  evaluation: GoalEvaluation,
  stageStatuses: Readonly<Record<string, StageStatus>>,
): string {
  return hashJson({
    v: 1,
    stages: Object.entries(stageStatuses).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    status: evaluation.status,
    score: evaluation.score,
    criticalCount: evaluation.criticalCount,
    rerun: evaluation.recommendedRerunStages,
    criteria: evaluation.criteria.map((criterion) => ({
      id: criterion.id,
      status: criterion.status,
      observed: criterion.observed === undefined ? { none: true } : { value: criterion.observed },
    })),
    builtins: evaluation.builtins.map((check) => [check.id, check.status]),
  });
}
