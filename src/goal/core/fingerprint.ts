import { hashJson } from '../../kit/hash.js';
import type { GoalEvaluation } from './evaluate.js';
import type { StageStatus } from './facts.js';

/** The progress fingerprint of an iteration. @public */
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
